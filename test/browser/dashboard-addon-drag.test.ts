import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchChromium } from './chromium.js';
import { type DashboardSeed, seedDashboardEstate, signIn } from './dashboard-seed.js';
import { expectAccessible, screenshot, watchedPage } from './page-kit.js';
import { call, upload } from './seed.js';
import { type PageServer, startPageServer } from './server.js';

// The add-ons screen's drag island (issue 35) in Chromium: gallery items reordered by dragging them with the mouse
// (the island posts the move route with the target index and reloads), the order read back through the API, then
// the keyboard's Move up / Move down on the same list; axe-core after each step and no console error.

let server: PageServer;
let browser: Browser;
let seed: DashboardSeed;
let estateId: string;

type Gallery = { items: Array<{ asset: { name: string } }> };
const galleryNames = async () => ((await call(server.base, 'GET', `/api/v1/estates/${estateId}/gallery`, seed.key)) as Gallery).items.map((i) => i.asset.name);

/** The ungrouped items' list on the page, in the order shown. */
const shownNames = (page: Page) => page.getByRole('list', { name: 'Images without a section', exact: true }).locator(':scope > li strong').allTextContents();
const itemOf = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Images without a section', exact: true }).locator(':scope > li', { has: page.getByText(name, { exact: true }) });

beforeAll(async () => {
  server = await startPageServer();
  browser = launchChromium();
  seed = await seedDashboardEstate(server.base, 1);
  estateId = ((await call(server.base, 'GET', '/api/v1/estate', seed.key)) as Array<{ id: string }>)[0]!.id;
  await call(server.base, 'PUT', `/api/v1/estates/${estateId}/gallery`, seed.key, { enabled: true });
  for (const [name, background] of [
    ['north.png', '#2563eb'],
    ['east.png', '#16a34a'],
    ['south.png', '#ea580c'],
  ] as const) {
    const png = await sharp({ create: { width: 600, height: 400, channels: 3, background } })
      .png()
      .toBuffer();
    const asset = await upload(server.base, seed.key, png, 'image/png', name);
    await call(server.base, 'POST', `/api/v1/estates/${estateId}/gallery/items`, seed.key, { assetId: asset.id });
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the add-ons screen’s drag ordering', () => {
  it('drags gallery items into a new order that persists; Move up / Move down still work (1366 px)', async () => {
    const context = await browser.context({ viewport: { width: 1366, height: 900 } });
    const { page, problems } = await watchedPage(context, server.base);
    await signIn(page, server.base);
    await page.goto(`${server.base}/dashboard/o/${seed.orgId}/addons/${estateId}/gallery`);
    expect(await shownNames(page)).toEqual(['north.png', 'east.png', 'south.png']);
    // The island made each item draggable.
    expect(await itemOf(page, 'north.png').getAttribute('draggable')).toBe('true');
    await expectAccessible(page, 'gallery before dragging');

    // North dropped on South: it takes South's place, the last.
    let reloaded = page.waitForEvent('load');
    await itemOf(page, 'north.png').locator('.item-head').dragTo(itemOf(page, 'south.png').locator('.item-head'));
    await reloaded;
    expect(await galleryNames()).toEqual(['east.png', 'south.png', 'north.png']);
    expect(await shownNames(page)).toEqual(['east.png', 'south.png', 'north.png']);
    await expectAccessible(page, 'gallery after a drag to the end');

    // South dropped on East: to the first place.
    reloaded = page.waitForEvent('load');
    await itemOf(page, 'south.png').locator('.item-head').dragTo(itemOf(page, 'east.png').locator('.item-head'));
    await reloaded;
    expect(await galleryNames()).toEqual(['south.png', 'east.png', 'north.png']);
    expect(await shownNames(page)).toEqual(['south.png', 'east.png', 'north.png']);
    await screenshot(page, 'dashboard-gallery-dragged', false);

    // A reload from the server shows the same order (it is stored, not only moved on the page).
    await page.reload();
    expect(await shownNames(page)).toEqual(['south.png', 'east.png', 'north.png']);

    // The keyboard still orders the same list: Move up on North, then Move down on South.
    await page.getByRole('button', { name: 'Move up north.png' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/done=moved/);
    expect(await galleryNames()).toEqual(['south.png', 'north.png', 'east.png']);
    await page.getByRole('button', { name: 'Move down south.png' }).focus();
    // The address already says done=moved: wait for the answer's page itself.
    reloaded = page.waitForEvent('load');
    await page.keyboard.press('Enter');
    await reloaded;
    expect(await galleryNames()).toEqual(['north.png', 'south.png', 'east.png']);
    expect(await shownNames(page)).toEqual(['north.png', 'south.png', 'east.png']);
    await expectAccessible(page, 'gallery after the keyboard moves');

    expect(problems).toEqual([]);
    await context.close();
  });
});
