import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchChromium } from './chromium.js';
import { expectAccessible, layoutShift, screenshot, watchedPage } from './page-kit.js';
import { type BuyersEstate, RENDER, homeRect, seedBuyersEstate } from './seed-estate.js';
import { type PageServer, startPageServer } from './server.js';

// Issue 34's "Done means" on its estate (seed-estate.ts: 2 buildings, 30 homes in every status, 4 frames of
// a 4:3 render, the four add-ons): the layout at 1366 px, shapes on their pixels, the zoom on a phone, and
// the page's words in German, French and Polish.

let server: PageServer;
let seeded: BuyersEstate;
let browser: Browser;
let url: string;

beforeAll(async () => {
  server = await startPageServer();
  seeded = await seedBuyersEstate(server.base);
  browser = launchChromium();
  url = `${server.base}/p/${seeded.slug}`;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const stageOf = (page: Page) => page.locator('section.navigator > .frames > figure[data-angle]:not([hidden]) .frame-stage').first();
const shapeSides = (page: Page) =>
  stageOf(page)
    .locator('svg a[data-apartment-id]')
    .evaluateAll((links) => links.map((a) => a.getBoundingClientRect()).map((r) => Math.min(r.width, r.height)));

describe('the estate buyers know (issue 34)', () => {
  it('at 1366 px: render and sidebar side by side in the first screen; the first add-on within three screens; no layout shift', async () => {
    const context = await browser.context({ viewport: { width: 1366, height: 900 }, deviceScaleFactor: 1 });
    const { page, problems } = await watchedPage(context, server.base);
    await page.goto(url, { waitUntil: 'networkidle' });
    const render = (await page.getByRole('region', { name: 'Project view' }).locator('.frames').boundingBox())!;
    const sidebar = (await page.getByRole('complementary', { name: 'Homes' }).boundingBox())!;
    expect(sidebar.x).toBeGreaterThanOrEqual(render.x + render.width);
    expect(render.y + render.height).toBeLessThan(900);
    expect(sidebar.y).toBeLessThan(900);
    expect(await page.locator('tbody tr[data-apartment-id]').count()).toBe(seeded.apartments.filter((a) => a.status !== 'HIDDEN').length);
    const addon = await page
      .locator('main section.addon')
      .first()
      .evaluate((s) => s.getBoundingClientRect().top + scrollY);
    expect(addon, 'the first add-on starts within three screens').toBeLessThan(3 * 900);
    expect(await layoutShift(page)).toEqual([]);
    await expectAccessible(page, 'the 30-home estate at 1366 px');
    await screenshot(page, '1366-estate-top', false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a 4:3 render: the shapes drawn at known pixels land on those pixels (screenshot)', async () => {
    const context = await browser.context({ viewport: { width: 1366, height: 900 }, deviceScaleFactor: 1 });
    const { page, problems } = await watchedPage(context, server.base);
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.mouse.move(1, 1);
    const stage = stageOf(page);
    const box = (await stage.boundingBox())!;
    // The stage has the render's aspect: never stretched.
    expect(Math.abs(box.width / box.height - RENDER.width / RENDER.height)).toBeLessThan(0.01);
    const png = await stage.screenshot();
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => {
      const i = (Math.round(y) * info.width + Math.round(x)) * 3;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    };
    const white = (p: number[]) => p.every((c) => c >= 250);
    const k = info.width / RENDER.width;
    // Each home's rectangle: tinted 4 px inside each edge, the white render 4 px outside it.
    for (let i = 0; i < seeded.apartments.length; i++) {
      if (seeded.apartments[i]!.status === 'HIDDEN') continue;
      const r = homeRect(i);
      const [left, top, right, bottom] = [r.x * k, r.y * k, (r.x + r.w) * k, (r.y + r.h) * k];
      const midX = (left + right) / 2;
      const midY = (top + bottom) / 2;
      const name = seeded.apartments[i]!.name;
      for (const [x, y] of [
        [left + 4, midY],
        [right - 4, midY],
        [midX, top + 4],
        [midX, bottom - 4],
      ] as const) {
        expect(white(at(x, y)), `${name} inside at ${x.toFixed(0)},${y.toFixed(0)}`).toBe(false);
      }
      for (const [x, y] of [
        [left - 4, midY],
        [right + 4, midY],
        [midX, top - 4],
        [midX, bottom + 4],
      ] as const) {
        expect(white(at(x, y)), `${name} outside at ${x.toFixed(0)},${y.toFixed(0)}`).toBe(true);
      }
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('on a phone: no control over the render; "Zoom in" and a double tap make every home’s shape at least 24 px', async () => {
    const context = await browser.context({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, hasTouch: true, isMobile: true });
    const { page, problems } = await watchedPage(context, server.base);
    await page.goto(url, { waitUntil: 'networkidle' });
    const render = (await page.getByRole('region', { name: 'Project view' }).locator('.frames').boundingBox())!;
    const controls = await page
      .locator('section.navigator > .view-controls')
      .locator('button, a')
      .evaluateAll((nodes) =>
        nodes
          .filter((n) => (n as HTMLElement).offsetParent !== null)
          .map(
            (n) =>
              ({ name: n.getAttribute('aria-label') ?? n.textContent, ...n.getBoundingClientRect().toJSON() }) as {
                name: string;
                top: number;
                width: number;
                height: number;
              },
          ),
      );
    expect(controls.length).toBeGreaterThan(4);
    for (const c of controls) {
      expect(c.top, `${c.name} under the render`).toBeGreaterThanOrEqual(render.y + render.height);
      expect(Math.min(c.width, c.height), `${c.name} >= 24 px`).toBeGreaterThanOrEqual(24);
    }
    // The estate's homes are too small to touch on a phone without zooming.
    expect(Math.min(...(await shapeSides(page)))).toBeLessThan(24);
    const zoomIn = page.getByRole('button', { name: 'Zoom in' });
    const zoomOut = page.getByRole('button', { name: 'Zoom out' });
    expect(await zoomOut.isDisabled()).toBe(true);
    for (let i = 0; i < 10 && !(await zoomIn.isDisabled()); i++) await zoomIn.tap();
    expect(await zoomIn.isDisabled()).toBe(true);
    expect(Math.min(...(await shapeSides(page))), 'at the zoom offered').toBeGreaterThanOrEqual(24);
    // Zoomed, the render still takes its place: nothing moved below it.
    expect((await page.getByRole('region', { name: 'Project view' }).locator('.frames').boundingBox())!.height).toBeCloseTo(render.height, 0);
    await expectAccessible(page, 'phone: zoomed in');
    await screenshot(page, '390-estate-zoomed', false);
    for (let i = 0; i < 10 && !(await zoomOut.isDisabled()); i++) await zoomOut.tap();
    expect(Math.min(...(await shapeSides(page)))).toBeLessThan(24);
    // A double tap on the render (between two homes) zooms in where it lands.
    const stage = (await stageOf(page).boundingBox())!;
    const between = { x: stage.x + stage.width * 0.05, y: stage.y + stage.height * 0.05 };
    await page.touchscreen.tap(between.x, between.y);
    await page.waitForTimeout(80);
    await page.touchscreen.tap(between.x, between.y);
    await expect.poll(async () => Math.min(...(await shapeSides(page)))).toBeGreaterThan(24);
    expect(problems).toEqual([]);
    await context.close();
  });

  describe.each([
    ['de-DE', 'Verfügbar'],
    ['fr-FR', 'Disponible'],
    ['pl-PL', 'Dostępne'],
  ])('with locale %s', (locale, available) => {
    // The page's own words in English that differ in each of the three languages.
    const ENGLISH = [
      'Available',
      'Reserved',
      'Sold',
      'Homes',
      'Legend',
      'Rooms',
      'Floor',
      'Price',
      'Any',
      'Minimum price',
      'Show homes',
      'Clear',
      'Previous view',
      'Next view',
      'Zoom in',
      'Zoom out',
      'Gallery',
      'Neighbourhood',
      'Show map',
      'Ask about a home',
      'Send inquiry',
      'Phone',
      'Only my favourites',
      'Link to my favourites',
      'Save',
      'Project view',
      'Views',
    ];
    it('no English word of the page’s vocabulary visible or named, and lang matches', async () => {
      const put = await fetch(`${server.base}/api/v1/estates/${seeded.estateId}/page`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${seeded.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ locale }),
      });
      expect(put.status).toBe(200);
      const context = await browser.context({ viewport: { width: 1366, height: 900 } });
      const { page, problems } = await watchedPage(context, server.base);
      await page.goto(`${url}?locale=${locale}`, { waitUntil: 'networkidle' });
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
      const said = await page.evaluate(() =>
        [document.body.innerText, ...[...document.querySelectorAll('[aria-label]')].map((n) => n.getAttribute('aria-label'))].join(' | '),
      );
      // What the partner entered (names, captions, labels) shows as entered: the seed's words are English on purpose.
      const entered = said.replace(
        /Lakeside Gardens[^|\n]*|Building B|View \d+°|Interiors[^|\n]*|Surroundings[^|\n]*|Brochure|Documents|Price list|Technical standard|Metro station|Market hall|Primary school|River park|Corner café|The investment|Green roofs|Bike storage|Built to[^|\n]*/g,
        ' ',
      );
      const found = ENGLISH.filter((w) => new RegExp(`(^|[^\\p{L}])${w}([^\\p{L}]|$)`, 'u').test(entered));
      expect(found, locale).toEqual([]);
      expect(said).toContain(available);
      expect(problems).toEqual([]);
      await context.close();
    });
  });
});
