import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchChromium } from './chromium.js';
import { type DashboardSeed, seedDashboardEstate, signIn } from './dashboard-seed.js';
import { expectAccessible, screenshot, watchedPage } from './page-kit.js';
import { call } from './seed.js';
import { type PageServer, startPageServer } from './server.js';

// The assets and add-ons screens (issue 35) in Chromium: upload two images with their progress shown, turn the
// gallery on and add them, reorder by keyboard (Move down), at 1366 and 390 px, axe-core on every screen
// visited and no console error; then the same upload and gallery with JavaScript off (forms and 303s).

let server: PageServer;
let browser: Browser;
let seed: DashboardSeed;
let estateId: string;

const image = (background: string) =>
  sharp({ create: { width: 900, height: 600, channels: 3, background } })
    .png()
    .toBuffer();

beforeAll(async () => {
  server = await startPageServer();
  browser = launchChromium();
  seed = await seedDashboardEstate(server.base, 1);
  const estates = await call(server.base, 'GET', '/api/v1/estate', seed.key);
  estateId = (estates as Array<{ id: string }>)[0]!.id;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

type Gallery = { enabled: boolean; items: Array<{ asset: { name: string } }> };
const galleryNames = async () => ((await call(server.base, 'GET', `/api/v1/estates/${estateId}/gallery`, seed.key)) as Gallery).items.map((i) => i.asset.name);

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true }).click();

describe('the assets and add-ons screens', () => {
  it('uploads two images with progress, adds them to the gallery, reorders by keyboard (1366 px, then 390 px)', async () => {
    const context = await browser.context({ viewport: { width: 1366, height: 900 } });
    const { page, problems } = await watchedPage(context, server.base);
    await signIn(page, server.base);
    await nav(page, 'Assets');
    await page.waitForURL(/\/assets$/);
    // The seed's render is used by two navigator frames.
    expect(await page.getByText('Screen Park: 2 navigator frames').count()).toBe(1);
    await expectAccessible(page, 'assets');

    await page.getByLabel('Files', { exact: true }).setInputFiles([
      { name: 'lobby.png', mimeType: 'image/png', buffer: await image('#2563eb') },
      { name: 'terrace.png', mimeType: 'image/png', buffer: await image('#16a34a') },
    ]);
    await page.getByRole('button', { name: 'Upload' }).click();
    // Each file's progress is a named progressbar; the live region says when all are done.
    await page.getByRole('status').filter({ hasText: 'All 2 files are uploaded.' }).waitFor();
    for (const name of ['lobby.png', 'terrace.png']) {
      const bar = page.getByRole('progressbar', { name });
      expect(await bar.isVisible()).toBe(true);
      expect(await bar.evaluate((el: HTMLProgressElement) => el.value === el.max && el.max > 0)).toBe(true);
    }
    await expectAccessible(page, 'assets after upload');
    await page.getByRole('link', { name: 'Show the uploaded files' }).click();
    await page.waitForURL(/done=uploaded/);
    expect(await page.getByRole('rowheader', { name: 'lobby.png' }).count()).toBe(1);
    expect(await page.getByRole('rowheader', { name: 'terrace.png' }).count()).toBe(1);
    await screenshot(page, 'dashboard-assets', false);

    await nav(page, 'Add-ons');
    await page.waitForURL(/\/addons$/);
    await expectAccessible(page, 'add-ons');
    await page.getByRole('link', { name: 'Off (edit the gallery of Screen Park)' }).click();
    await page.waitForURL(/\/addons\/[0-9a-f-]{36}\/gallery$/);
    await expectAccessible(page, 'gallery (off, empty)');
    await page.getByRole('button', { name: 'Turn on the gallery' }).click();
    await page.waitForURL(/done=enabled/);
    await page.getByLabel('lobby.png').check();
    await page.getByLabel('terrace.png').check();
    await page.getByRole('button', { name: 'Add to the gallery' }).click();
    await page.waitForURL(/done=added/);
    // Added in the picker's order: newest first.
    expect(await galleryNames()).toEqual(['terrace.png', 'lobby.png']);
    await expectAccessible(page, 'gallery with two images');

    // Keyboard only: focus the button and press Enter (a plain form: POST, 303 back).
    await page.getByRole('button', { name: 'Move down terrace.png' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/done=moved/);
    expect(await galleryNames()).toEqual(['lobby.png', 'terrace.png']);
    expect(((await call(server.base, 'GET', `/api/v1/estates/${estateId}/gallery`, seed.key)) as Gallery).enabled).toBe(true);
    await expectAccessible(page, 'gallery reordered');
    await screenshot(page, 'dashboard-gallery', false);
    expect(problems).toEqual([]);
    await context.close();

    const phone = await browser.context({ viewport: { width: 390, height: 844 } });
    const watched = await watchedPage(phone, server.base);
    const mobile = watched.page;
    await signIn(mobile, server.base);
    await mobile.goto(`${server.base}/dashboard/o/${seed.orgId}/assets`);
    await expectAccessible(mobile, 'assets at 390 px');
    await mobile.goto(`${server.base}/dashboard/o/${seed.orgId}/addons`);
    await expectAccessible(mobile, 'add-ons at 390 px');
    await mobile.goto(`${server.base}/dashboard/o/${seed.orgId}/addons/${estateId}/gallery`);
    await expectAccessible(mobile, 'gallery at 390 px');
    await mobile.getByRole('button', { name: 'Move up terrace.png' }).focus();
    await mobile.keyboard.press('Enter');
    await mobile.waitForURL(/done=moved/);
    expect(await galleryNames()).toEqual(['terrace.png', 'lobby.png']);
    await screenshot(mobile, 'dashboard-gallery-390', false);
    expect(watched.problems).toEqual([]);
    await phone.close();
  });

  it('with JavaScript off: the same upload and gallery through plain forms and 303s', async () => {
    const context = await browser.context({ viewport: { width: 1366, height: 900 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, server.base);
    await page.goto(`${server.base}/dashboard/o/${seed.orgId}/assets`);
    await page.getByLabel('Files', { exact: true }).setInputFiles([
      { name: 'hall.png', mimeType: 'image/png', buffer: await image('#9333ea') },
      { name: 'roof.png', mimeType: 'image/png', buffer: await image('#ea580c') },
    ]);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/assets\?done=uploaded$/);
    expect(await page.getByText('The files are uploaded.').count()).toBe(1);
    expect(await page.getByRole('rowheader', { name: 'hall.png' }).count()).toBe(1);

    await page.goto(`${server.base}/dashboard/o/${seed.orgId}/addons/${estateId}/gallery`);
    await page.getByLabel('hall.png').check();
    await page.getByLabel('roof.png').check();
    await page.getByRole('button', { name: 'Add to the gallery' }).click();
    await page.waitForURL(/done=added/);
    expect(await galleryNames()).toEqual(['terrace.png', 'lobby.png', 'roof.png', 'hall.png']);
    await page.getByRole('button', { name: 'Move up hall.png' }).click();
    await page.waitForURL(/done=moved/);
    expect(await galleryNames()).toEqual(['terrace.png', 'lobby.png', 'hall.png', 'roof.png']);
    await context.close();
  });
});
