import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { call, upload } from './seed.js';
import { ADMIN_TOKEN } from './server.js';

/**
 * An organization for the dashboard's shapes screen in the browser tier and bench/editor.ts: an estate with
 * `apartments` apartments (R-01…, external ids crm-r-1…) in building "Tower R", a 1600 × 1200 render
 * (the navigator's overlay is the render's 4:3 pixels) on two frames (Front, Back) and any `extraFrames`,
 * any `extraBuildings`, and an editor with an account (the invitation accepted as its page posts it).
 */
export const RENDER = { width: 1600, height: 1200 };
export const PASSWORD = 'violet harbour lantern 42';
export const EDITOR_EMAIL = 'drawer@screen.example';

export interface DashboardSeed {
  orgId: string;
  key: string;
  navigatorId: string;
  frameId: string;
  backFrameId: string;
  apartments: Array<{ id: string; name: string }>;
  estateId: string;
  slug: string;
  /** Tower R first, then `extraBuildings`. */
  buildings: Array<{ id: string; name: string }>;
  /** Front, Back, then `extraFrames`. */
  frames: Array<{ id: string; name: string }>;
}

export interface SeedOptions {
  extraBuildings?: string[];
  extraFrames?: string[];
}

export async function seedDashboardEstate(base: string, apartments: number, options: SeedOptions = {}): Promise<DashboardSeed> {
  const org = await call(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Screen Developments' });
  const orgId = org.organization.id as string;
  const key = org.apiKey as string;
  const setup = await call(base, 'POST', '/api/v1/estate/setup', key, { name: 'Screen Park', buildingName: 'Tower R' });
  const specs = Array.from({ length: apartments }, (_, i) => ({
    name: `R-${String(i + 1).padStart(2, '0')}`,
    externalId: `crm-r-${i + 1}`,
    status: 'ACTIVE',
  }));
  const bulk = await call(base, 'POST', '/api/v1/apartment/bulk', key, { buildingId: setup.building.id, apartments: specs });
  const png = await sharp({ create: { ...RENDER, channels: 3, background: '#d1d5db' } })
    .png()
    .toBuffer();
  const asset = await upload(base, key, png, 'image/png', 'render.png');
  const navigatorId = setup.navigator.id as string;
  const frame = await call(base, 'POST', `/api/v1/navigator/${navigatorId}/images`, key, { assetId: asset.id, angle: 0, name: 'Front' });
  const back = await call(base, 'POST', `/api/v1/navigator/${navigatorId}/images`, key, { assetId: asset.id, angle: 180, name: 'Back' });
  const frames = [
    { id: frame.id as string, name: 'Front' },
    { id: back.id as string, name: 'Back' },
  ];
  for (const [i, name] of (options.extraFrames ?? []).entries()) {
    const extra = await call(base, 'POST', `/api/v1/navigator/${navigatorId}/images`, key, { assetId: asset.id, angle: 200 + i * 40, name });
    frames.push({ id: extra.id as string, name });
  }
  await call(base, 'PATCH', `/api/v1/navigator/${navigatorId}`, key, {
    options: { sourceWidth: RENDER.width, sourceHeight: RENDER.height, overlayWidth: RENDER.width, overlayHeight: RENDER.height },
  });
  const estateId = setup.estate.id as string;
  const buildings = [{ id: setup.building.id as string, name: 'Tower R' }];
  for (const name of options.extraBuildings ?? []) {
    const building = await call(base, 'POST', '/api/v1/building', key, { estateId, name });
    buildings.push({ id: building.id as string, name });
  }
  const estate = await call(base, 'GET', `/api/v1/estate/${estateId}`, key);
  const invitation = await call(base, 'POST', `/api/v1/admin/organizations/${orgId}/invitations`, ADMIN_TOKEN, { email: EDITOR_EMAIL, role: 'editor' });
  const accepted = await fetch(`${base}${new URL(invitation.url).pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ firstName: 'Dana', lastName: 'Drawer', password: PASSWORD }).toString(),
  });
  if (accepted.status !== 303) throw new Error(`invitation -> ${accepted.status} ${await accepted.text()}`);
  return {
    orgId,
    key,
    navigatorId,
    frameId: frame.id as string,
    backFrameId: back.id as string,
    apartments: specs.map((s, i) => ({ id: bulk.ids[i] as string, name: s.name })),
    estateId,
    slug: estate.slug as string,
    buildings,
    frames,
  };
}

/** Signs the editor in through the sign-in form. */
export async function signIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(EDITOR_EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
}

/** Where a render pixel is on screen, as Chromium maps it (the island's SVG's screen CTM). */
export const toScreen = (page: Page, p: { x: number; y: number }) =>
  page.evaluate(({ x, y }) => {
    const svg = document.querySelector('svg.se-canvas') as SVGSVGElement;
    const point = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM()!);
    return { x: point.x, y: point.y };
  }, p);
