import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToRings } from '../../src/modules/shape-editor/polygons.js';
import { type Browser, launchChromium } from './chromium.js';
import { type DashboardSeed, EDITOR_EMAIL, PASSWORD, seedDashboardEstate, toScreen } from './dashboard-seed.js';
import { expectAccessible, screenshot, watchedPage } from './page-kit.js';
import { type PageServer, startPageServer } from './server.js';

// The shapes screen of the dashboard (issue 36, phase 2) in real Chromium, on the built server: an editor
// signs in, opens a frame's screen from the Shapes list, draws one polygon, assigns an apartment by
// typing in "Apartment or building", saves, reloads and sees it; without JavaScript the same screen
// shows the render with its shapes and the homes still missing one. 0 axe-core violations, no console error.

let server: PageServer;
let browser: Browser;
let seeded: DashboardSeed;

beforeAll(async () => {
  server = await startPageServer();
  seeded = await seedDashboardEstate(server.base, 3);
  browser = launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the shapes screen', () => {
  it('an editor signs in, opens a frame, draws a polygon, assigns an apartment by typing, saves, reloads and sees it', async () => {
    const context = await browser.context({ viewport: { width: 1280, height: 1000 }, deviceScaleFactor: 1 });
    const { page, problems } = await watchedPage(context, server.base);
    await page.goto(`${server.base}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(EDITOR_EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Shapes' }).click();
    await page.getByRole('link', { name: 'Front' }).click();
    await page.getByRole('application', { name: 'Shape editor' }).waitFor();
    expect(page.url()).toBe(`${server.base}/dashboard/o/${seeded.orgId}/navigators/${seeded.navigatorId}/frames/${seeded.frameId}/shapes`);
    // The read-only view is hidden once the island runs.
    expect(await page.locator('.shapes-static').isVisible()).toBe(false);
    await expectAccessible(page, 'shapes screen, editor');

    const corners = [
      { x: 200.5, y: 150.25 },
      { x: 700, y: 150.25 },
      { x: 700, y: 600 },
      { x: 200.5, y: 600 },
    ];
    for (const corner of [...corners, corners[0]!]) {
      const at = await toScreen(page, corner);
      await page.mouse.click(at.x, at.y);
    }
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/^Shape closed with 4 points/);
    const box = page.getByRole('combobox', { name: 'Apartment or building' });
    await box.pressSequentially('r-02');
    await page.getByRole('option', { name: /^R-02 \(/ }).waitFor();
    await box.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: /^Shape 1: R-02$/ }).count()).toBe(1);
    await page.getByRole('button', { name: 'Save shapes' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved 1 shape');
    await screenshot(page, 'shape-editor-screen-saved', false);

    // Stored through the dashboard's endpoint, in the render's pixels (one render pixel per screen pixel or better here).
    const res = await fetch(`${server.base}/api/v1/navigator/${seeded.navigatorId}/images/${seeded.frameId}/shapes`, {
      headers: { authorization: `Bearer ${seeded.key}` },
    });
    const stored = (await res.json()) as Array<{ referenceId: string; shape: string }>;
    expect(stored.map((s) => s.referenceId)).toEqual([seeded.apartments[1]!.id]);
    const tolerance = Math.max(1, await page.evaluate(() => 1 / (document.querySelector('svg.se-canvas') as SVGSVGElement).getScreenCTM()!.a));
    const got = pathToRings(stored[0]!.shape).rings[0]!;
    got.forEach((p, i) => {
      expect(Math.abs(p.x - corners[i]!.x)).toBeLessThanOrEqual(tolerance);
      expect(Math.abs(p.y - corners[i]!.y)).toBeLessThanOrEqual(tolerance);
    });

    const frontUrl = page.url();
    await page.reload();
    await page.getByRole('application', { name: 'Shape editor' }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: /^Shape 1: R-02$/ }).count()).toBe(1);

    // "Copy shapes from" on the other frame reads this frame's shapes through the dashboard (data-frame-shapes-url).
    await page.getByRole('link', { name: 'Back', exact: true }).click();
    await page.getByRole('application', { name: 'Shape editor' }).waitFor();
    await page.getByLabel('Frame to copy from').selectOption({ label: 'Front' });
    await page.getByRole('button', { name: 'Copy shapes from' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Copied 1 shapes from Front');
    await page.getByRole('button', { name: 'Save shapes' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved 1 shape');
    expect(problems).toEqual([]);
    await page.goto(frontUrl);

    // Without JavaScript, the same screen: the render with the shape, and the homes still missing one.
    const noScript = await browser.context({ viewport: { width: 1280, height: 1000 }, javaScriptEnabled: false });
    await noScript.addCookies(await context.cookies());
    const plain = await noScript.newPage();
    await plain.goto(frontUrl);
    expect(await plain.locator('.shapes-static svg path').count()).toBe(1);
    expect(await plain.locator('.shapes-static svg path title').textContent()).toBe('R-02 (crm-r-2)');
    expect(await plain.getByRole('list', { name: 'Homes without a shape' }).getByRole('listitem').allTextContents()).toEqual([
      'R-01 (crm-r-1)',
      'R-03 (crm-r-3)',
      'Tower R (building)',
    ]);
    await screenshot(plain, 'shape-editor-screen-no-script', false);

    // The import form without JavaScript: Chromium's own multipart post, the report, then the save.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600"><rect id="crm-r-1" x="10" y="10" width="100" height="50"/><path id="R-03" d="M200 200H300V300H200Z"/><path id="Nobody" d="M0 0H5V5Z"/></svg>`;
    await plain.getByLabel('SVG file', { exact: true }).setInputFiles({ name: 'plan.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
    await plain.getByRole('button', { name: 'Check the file' }).click();
    await plain.getByRole('heading', { name: 'Import into Front' }).waitFor();
    expect(await plain.getByRole('list', { name: 'Matched', exact: true }).getByRole('listitem').allTextContents()).toEqual(['crm-r-1 → R-01', 'R-03 → R-03']);
    expect(await plain.getByRole('list', { name: 'Unmatched' }).getByRole('listitem').allTextContents()).toEqual(['Nobody']);
    await plain.getByRole('button', { name: 'Save the imported shapes' }).click();
    await plain.getByText('The shapes from the SVG file are saved.').waitFor();
    expect(await plain.locator('.shapes-static svg path').count()).toBe(3);
    expect(await plain.getByRole('list', { name: 'Homes without a shape' }).getByRole('listitem').allTextContents()).toEqual(['Tower R (building)']);
  });
});
