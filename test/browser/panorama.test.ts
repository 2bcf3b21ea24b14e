import type { BrowserContext, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchChromium } from './chromium.js';
import { type Watched, expectAccessible, layoutShift, screenshot, watchedPage } from './page-kit.js';
import { type SeededPanoramas, seedPanoramas } from './seed-panoramas.js';
import { type PageServer, startPageServer } from './server.js';

// Issue 34: a home's panoramas in the 360° viewer (its own bundle, loaded only when opened; portals and
// points of interest; the flat image without WebGL; the image link without JavaScript), and nested
// navigators shown in place of their parent with a way back (a button, the browser's Back, the address).

let server: PageServer;
let seeded: SeededPanoramas;
let browser: Browser;
let pageUrl: string;
let homeUrl: string;

beforeAll(async () => {
  server = await startPageServer();
  seeded = await seedPanoramas(server.base);
  browser = launchChromium();
  pageUrl = `${server.base}/p/${seeded.slug}`;
  homeUrl = `${pageUrl}/homes/${seeded.home.id}`;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A panorama's "Open 360° view" button (its name ends with the panorama's, in a visually hidden span). */
const openButton = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^Open 360° view\\W*${name}$`) });
/**
 * Chromium's own page for an image opened alone styles it inline, which the file's `default-src 'none'`
 * (the /files/ route) refuses and logs: the image's document, not ours.
 */
const imageDocumentStyle = (problem: string) => /Applying inline style violates .* \(http:\/\/[^)]+\/files\//.test(problem);
const viewerRequests = (w: Watched) => w.requests.filter((u) => /\/assets\/page\/viewer\.\w{10}\.js$/.test(u));

/** The mean colour of what an element shows now (a screenshot of it). */
async function meanColour(locator: Locator): Promise<{ r: number; g: number; b: number }> {
  const stats = await sharp(await locator.screenshot()).stats();
  const [r, g, b] = stats.channels.map((c) => c.mean) as [number, number, number];
  return { r, g, b };
}

/** `url` at a laptop's size in a fresh context, watched (page-kit.ts). */
async function laptopPage(url: string): Promise<{ context: BrowserContext; w: Watched; page: Page }> {
  const context = await browser.context({ viewport: { width: 1366, height: 900 }, deviceScaleFactor: 1 });
  const w = await watchedPage(context, server.base);
  await w.page.goto(url, { waitUntil: 'networkidle' });
  return { context, w, page: w.page };
}

describe('the 360° viewer on a home page', () => {
  let context: BrowserContext;
  let w: Watched;
  let page: Page;

  beforeAll(async () => {
    ({ context, w, page } = await laptopPage(homeUrl));
  });
  afterAll(async () => context?.close());

  it('lists the panoramas, each linking its image, and loads no viewer code before one opens', async () => {
    const section = page.getByRole('region', { name: 'Panoramas' });
    const links = section.locator('a.panorama-link');
    expect(await links.evaluateAll((as) => as.map((a) => [a.textContent?.trim(), (a as HTMLAnchorElement).href]))).toEqual([
      [seeded.livingRoom.name, seeded.livingRoom.src],
      [seeded.bedroom.name, seeded.bedroom.src],
    ]);
    expect(await section.getByRole('button', { name: /^Open 360° view/ }).count()).toBe(2);
    expect(viewerRequests(w)).toEqual([]);
    // The first load's JavaScript: the page's bundle only, within 30 KB as served (gzip: Chromium asks for br only over https).
    const js = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => e.name.endsWith('.js'))
        .map((e) => [e.name, e.encodedBodySize] as const),
    );
    expect(js.map(([name]) => new URL(name).pathname)).toEqual([expect.stringMatching(/^\/assets\/page\/page\.\w{10}\.js$/)]);
    expect(js[0]![1]).toBeLessThanOrEqual(30 * 1024);
    await expectAccessible(page, 'home page with panoramas');
  });

  it('opens the viewer: a region "360° view" drawn by WebGL, the portal and the point of interest where they belong', async () => {
    await openButton(page, seeded.livingRoom.name).click();
    const viewer = page.getByRole('region', { name: '360° view', exact: true });
    await expect.poll(() => viewer.isVisible()).toBe(true);
    expect(viewerRequests(w)).toHaveLength(1);
    await expect.poll(() => viewer.getAttribute('aria-busy')).toBeNull();
    expect(await viewer.locator('.pano-name').textContent()).toBe(seeded.livingRoom.name);
    // The focus is on the picture, which says how to look around.
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('pano-stage');
    // The living room's image is red: the canvas shows it.
    const stage = viewer.locator('.pano-stage');
    const red = await meanColour(stage);
    expect(red.r).toBeGreaterThan(red.b + 60);
    // The portal (yaw 0, pitch 0, where the view starts) is at the middle of the picture, named by its target.
    const portal = viewer.getByRole('button', { name: seeded.bedroom.name });
    const box = (await stage.boundingBox())!;
    const at = (await portal.boundingBox())!;
    expect(Math.abs(at.x + at.width / 2 - (box.x + box.width / 2))).toBeLessThanOrEqual(2);
    expect(Math.abs(at.y + at.height / 2 - (box.y + box.height / 2))).toBeLessThanOrEqual(2);
    // The point of interest (yaw 20, pitch 10: right of and below the middle) is a labelled button.
    const poi = viewer.getByRole('button', { name: 'Balcony door' });
    const poiBox = (await poi.boundingBox())!;
    expect(poiBox.x + poiBox.width / 2).toBeGreaterThan(box.x + box.width / 2 + 50);
    expect(poiBox.y + poiBox.height / 2).toBeGreaterThan(box.y + box.height / 2 + 20);
    await expectAccessible(page, 'viewer open');
    await screenshot(page, 'panorama-open', false);
    expect(w.problems).toEqual([]);
  });

  it('looks around with the arrow keys and zooms with the buttons and the wheel', async () => {
    const viewer = page.getByRole('region', { name: '360° view', exact: true });
    const portal = viewer.getByRole('button', { name: seeded.bedroom.name });
    const x = async () => (await portal.boundingBox())!.x;
    const start = await x();
    await viewer.locator('.pano-stage').focus();
    await page.keyboard.press('ArrowRight');
    // Looking right moves what is ahead to the left.
    await expect.poll(x).toBeLessThan(start - 20);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(x).toBeCloseTo(start, 0);
    // Zoom in: the point of interest moves away from the middle.
    const poi = viewer.getByRole('button', { name: 'Balcony door' });
    const poiX = async () => (await poi.boundingBox())!.x;
    const before = await poiX();
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(poiX).toBeGreaterThan(before + 10);
    await viewer.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(poiX).toBeCloseTo(before, 0);
    const box = (await viewer.locator('.pano-stage').boundingBox())!;
    // (Above and left of the middle: no marker there.)
    await page.mouse.move(box.x + box.width / 2 - 100, box.y + box.height / 2 - 150);
    await page.mouse.wheel(0, -300);
    await expect.poll(poiX).toBeGreaterThan(before + 10);
    // A drag to the left looks right, as the arrow key does.
    const portalX = await x();
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 300, box.y + box.height / 2 - 150, { steps: 5 });
    await page.mouse.up();
    await expect.poll(x).toBeLessThan(portalX - 100);
    expect(w.problems).toEqual([]);
  });

  it('a portal moves to the other panorama; Escape closes the viewer and gives the focus back', async () => {
    const viewer = page.getByRole('region', { name: '360° view', exact: true });
    // Back to where the portal is in view, then through it.
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => viewer.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain(seeded.livingRoom.name);
    await openButton(page, seeded.livingRoom.name).click();
    await expect.poll(() => viewer.getAttribute('aria-busy')).toBeNull();
    await viewer.getByRole('button', { name: seeded.bedroom.name }).click();
    await expect.poll(() => viewer.locator('.pano-name').textContent()).toBe(seeded.bedroom.name);
    await expect.poll(() => viewer.getAttribute('aria-busy')).toBeNull();
    // The bedroom's image is blue; the viewer's code was fetched once.
    await expect.poll(async () => (await meanColour(viewer.locator('.pano-stage'))).b).toBeGreaterThan(120);
    const blue = await meanColour(viewer.locator('.pano-stage'));
    expect(blue.b).toBeGreaterThan(blue.r + 60);
    expect(viewerRequests(w)).toHaveLength(1);
    await expectAccessible(page, 'viewer after the portal');
    await screenshot(page, 'panorama-portal', false);
    await page.keyboard.press('Escape');
    await expect.poll(() => viewer.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain(seeded.livingRoom.name);
    expect(w.problems).toEqual([]);
  });
});

describe('points of interest and their links', () => {
  it('a point of interest shows its name and links (new tab, noopener) under the picture; pressed again, hides them', async () => {
    const { context, w, page } = await laptopPage(homeUrl);
    // Without opening the viewer, the links are listed under the panorama too.
    const listed = page.locator('.panorama-pois a');
    expect(await listed.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]))).toEqual([
      ['doors.example/balcony?size=2 (opens in a new tab)', 'https://doors.example/balcony?size=2', '_blank', 'noopener noreferrer'],
      ['maker.example (opens in a new tab)', 'http://maker.example/', '_blank', 'noopener noreferrer'],
    ]);
    await openButton(page, seeded.livingRoom.name).click();
    const viewer = page.getByRole('region', { name: '360° view', exact: true });
    await expect.poll(() => viewer.getAttribute('aria-busy')).toBeNull();
    const poi = viewer.getByRole('button', { name: 'Balcony door' });
    const info = viewer.locator('#pano-poi-info');
    expect(await poi.getAttribute('aria-expanded')).toBe('false');
    expect(await info.isVisible()).toBe(false);
    await poi.click();
    await expect.poll(() => info.isVisible()).toBe(true);
    expect(await poi.getAttribute('aria-expanded')).toBe('true');
    expect(await info.locator('.pano-poi-name').textContent()).toBe('Balcony door');
    const links = info.getByRole('link');
    expect(await links.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]))).toEqual([
      ['doors.example/balcony?size=2 (opens in a new tab)', 'https://doors.example/balcony?size=2', '_blank', 'noopener noreferrer'],
      ['maker.example (opens in a new tab)', 'http://maker.example/', '_blank', 'noopener noreferrer'],
    ]);
    // The info is under the picture, not over it.
    const stage = (await viewer.locator('.pano-stage').boundingBox())!;
    expect((await info.boundingBox())!.y).toBeGreaterThanOrEqual(stage.y + stage.height);
    // The view turned to face the point: its button is at the middle of the picture.
    await expect
      .poll(async () => {
        const at = (await poi.boundingBox())!;
        return Math.abs(at.x + at.width / 2 - (stage.x + stage.width / 2));
      })
      .toBeLessThanOrEqual(2);
    await expectAccessible(page, 'viewer with a point of interest open');
    await screenshot(page, 'panorama-poi', false);
    await poi.click();
    await expect.poll(() => info.isVisible()).toBe(false);
    expect(await poi.getAttribute('aria-expanded')).toBe('false');
    expect(w.problems).toEqual([]);
    await context.close();
  });
});

describe('the viewer without WebGL, and the panoramas without JavaScript', () => {
  it('without WebGL: the flat image and a message; the portal still moves', async () => {
    const context = await browser.context({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => {
      const original = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
        if (type === 'webgl' || type === 'experimental-webgl' || type === 'webgl2') return null;
        return (original as (...args: unknown[]) => unknown).call(this, type, ...rest);
      } as typeof original;
    });
    const { page, problems } = await watchedPage(context, server.base);
    await page.goto(homeUrl, { waitUntil: 'networkidle' });
    await openButton(page, seeded.livingRoom.name).click();
    const viewer = page.getByRole('region', { name: '360° view', exact: true });
    await expect.poll(() => viewer.getByRole('status').textContent()).toBe('This browser cannot show the 360° view. Here is the flat image.');
    expect(await viewer.getByRole('img', { name: seeded.livingRoom.name }).getAttribute('src')).toBe(seeded.livingRoom.src);
    await viewer.getByRole('button', { name: seeded.bedroom.name }).click();
    await expect.poll(() => viewer.getByRole('img', { name: seeded.bedroom.name }).count()).toBe(1);
    await expectAccessible(page, 'viewer without WebGL');
    await screenshot(page, 'panorama-flat', false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('without JavaScript each panorama links to its image, and no "Open" button shows', async () => {
    const context = await browser.context({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const { page, problems } = await watchedPage(context, server.base);
    await page.goto(homeUrl, { waitUntil: 'networkidle' });
    expect(await page.getByRole('button', { name: /Open 360° view/ }).count()).toBe(0);
    const response = await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: seeded.bedroom.name }).click()]).then(([r]) => r);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(seeded.bedroom.src);
    expect(response?.headers()['content-type']).toBe('image/jpeg');
    expect(problems.filter((p) => !imageDocumentStyle(p))).toEqual([]);
    await context.close();
  });
});

describe('nested navigators with a way back', () => {
  let context: BrowserContext;
  let w: Watched;
  let page: Page;
  const parentRegion = () => page.getByRole('region', { name: 'Project view' });
  const nestedRegion = () => page.getByRole('region', { name: seeded.nestedName });
  const shownParentAngle = () => page.locator('section.navigator:not(.nested) > .frames > figure:not([hidden])').getAttribute('data-angle');
  const buildingShape = () => page.locator(`section.navigator:not(.nested) > .frames > figure:not([hidden]) svg a[data-navigator-id="${seeded.nestedId}"]`);
  const search = () => page.evaluate(() => location.search);

  beforeAll(async () => {
    ({ context, w, page } = await laptopPage(pageUrl));
  });
  afterAll(async () => context?.close());

  it('starts on the top navigator only', async () => {
    expect(await parentRegion().locator('.frames').first().isVisible()).toBe(true);
    expect(await nestedRegion().isVisible()).toBe(false);
    await expectAccessible(page, 'navigator with a nested one');
  });

  it('a building opens its navigator in place, the address follows; "Back to" returns to the frame the parent was on', async () => {
    await page.getByRole('button', { name: 'Next view' }).click();
    expect(await shownParentAngle()).toBe('180');
    await buildingShape().click();
    await expect.poll(() => nestedRegion().isVisible()).toBe(true);
    expect(await parentRegion().locator(':scope > .frames').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Next view' }).count()).toBe(0);
    expect(await search()).toBe(`?view=${seeded.nestedId}`);
    const back = page.getByRole('link', { name: `Back to ${seeded.estateName}` });
    expect(await back.isVisible()).toBe(true);
    // The focus moved to the way back; the nested navigator's homes are reachable.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain(`Back to ${seeded.estateName}`);
    expect(await nestedRegion().locator('svg a[data-apartment-id]').count()).toBe(3);
    await expectAccessible(page, 'nested navigator open');
    await screenshot(page, 'nested-open', false);
    await page.keyboard.press('Enter');
    await expect.poll(() => nestedRegion().isVisible()).toBe(false);
    expect(await shownParentAngle()).toBe('180');
    expect(await search()).toBe('');
    // The focus is back on the building that opened it.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-navigator-id'))).toBe(seeded.nestedId);
    expect(w.problems).toEqual([]);
  });

  it("the browser's Back and Forward move between them; an address with ?view= opens the nested one", async () => {
    await buildingShape().click();
    await expect.poll(() => nestedRegion().isVisible()).toBe(true);
    await page.goBack();
    await expect.poll(() => nestedRegion().isVisible()).toBe(false);
    expect(await parentRegion().locator(':scope > .frames').isVisible()).toBe(true);
    expect(await shownParentAngle()).toBe('180');
    await page.goForward();
    await expect.poll(() => nestedRegion().isVisible()).toBe(true);
    await page.goto(`${pageUrl}?view=${seeded.nestedId}`, { waitUntil: 'networkidle' });
    expect(await nestedRegion().isVisible()).toBe(true);
    expect(await parentRegion().locator(':scope > .frames').isVisible()).toBe(false);
    expect(w.problems).toEqual([]);
  });

  it('a shared ?view= link: the server shows the nested navigator (no shift when the script loads), Back link to the top one', async () => {
    const shared = await browser.context({ viewport: { width: 1366, height: 900 }, deviceScaleFactor: 1 });
    const watched = await watchedPage(shared, server.base);
    const p = watched.page;
    // The HTML as the server sends it (before any script): the nested navigator shown, the top one hidden.
    const html = await (await fetch(`${pageUrl}?view=${seeded.nestedId}`)).text();
    expect(html).toContain(`<section class="navigator nested is-shown" id="navigator-${seeded.nestedId}"`);
    expect(html).toMatch(new RegExp(`<section class="navigator shows-nested" id="navigator-${seeded.navigatorId}"`));
    await p.goto(`${pageUrl}?view=${seeded.nestedId}`, { waitUntil: 'networkidle' });
    const nested = p.getByRole('region', { name: seeded.nestedName });
    expect(await nested.isVisible()).toBe(true);
    expect(await p.getByRole('region', { name: 'Project view' }).locator(':scope > .frames').isVisible()).toBe(false);
    expect(await nested.locator('svg a[data-apartment-id]').count()).toBe(3);
    // Nothing moved when the script ran (it found the classes it would set already there).
    expect(await layoutShift(p)).toEqual([]);
    expect(await p.evaluate(() => document.documentElement.classList.contains('js'))).toBe(true);
    await expectAccessible(p, 'shared ?view= link');
    await nested.getByRole('link', { name: `Back to ${seeded.estateName}` }).click();
    await expect.poll(() => nested.isVisible()).toBe(false);
    expect(await p.getByRole('region', { name: 'Project view' }).locator(':scope > .frames').isVisible()).toBe(true);
    expect(await p.evaluate(() => location.search)).toBe('');
    // An unknown view: the top navigator, as without one.
    await p.goto(`${pageUrl}?view=00000000-0000-4000-8000-000000000000`, { waitUntil: 'networkidle' });
    expect(await p.getByRole('region', { name: 'Project view' }).locator(':scope > .frames').isVisible()).toBe(true);
    expect(await nested.isVisible()).toBe(false);
    expect(watched.problems).toEqual([]);
    await shared.close();

    // Without JavaScript: the same view, and its Back link is an address that shows the top navigator.
    const noJs = await browser.context({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const { page: plain, problems } = await watchedPage(noJs, server.base);
    await plain.goto(`${pageUrl}?view=${seeded.nestedId}`, { waitUntil: 'networkidle' });
    const plainNested = plain.getByRole('region', { name: seeded.nestedName });
    expect(await plainNested.isVisible()).toBe(true);
    expect(await plain.getByRole('region', { name: 'Project view' }).locator(':scope > .frames').isVisible()).toBe(false);
    await Promise.all([plain.waitForNavigation(), plainNested.getByRole('link', { name: `Back to ${seeded.estateName}` }).click()]);
    expect(new URL(plain.url()).search).toBe('');
    expect(new URL(plain.url()).hash).toBe(`#navigator-${seeded.navigatorId}`);
    expect(await plain.getByRole('region', { name: 'Project view' }).locator(':scope > .frames').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await noJs.close();
  });

  it('without JavaScript the building links to its navigator, and its "Back to" link to the parent', async () => {
    const noJs = await browser.context({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const { page: plain, problems } = await watchedPage(noJs, server.base);
    await plain.goto(pageUrl, { waitUntil: 'networkidle' });
    await plain.locator(`section.navigator:not(.nested) svg a[data-navigator-id="${seeded.nestedId}"]`).first().click();
    expect(new URL(plain.url()).hash).toBe(`#navigator-${seeded.nestedId}`);
    const nested = plain.getByRole('region', { name: seeded.nestedName });
    expect(await nested.isVisible()).toBe(true);
    // As the server writes them (the script adds data-apartment-id): each home's shape links its page.
    expect(await nested.locator('svg a[href*="/homes/"]').count()).toBe(3);
    await nested.getByRole('link', { name: `Back to ${seeded.estateName}` }).click();
    expect(new URL(plain.url()).hash).toBe(`#navigator-${seeded.navigatorId}`);
    expect(await plain.getByRole('region', { name: 'Project view' }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await noJs.close();
  });
});
