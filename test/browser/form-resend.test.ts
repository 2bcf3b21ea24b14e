import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchChromium } from './chromium.js';
import { watchedPage } from './page-kit.js';
import { type Seeded, seedEstate } from './seed.js';
import { type PageServer, startPageServer } from './server.js';

// The inline form when its answer is lost (issue 33): the post reached the server and was stored, but the
// browser saw a network failure. The form must not be submitted natively after fetch has sent it, and
// sending it again (the same one-time key) must not store a second inquiry.

let server: PageServer;
let seeded: Seeded;
let browser: Browser;

beforeAll(async () => {
  server = await startPageServer();
  seeded = await seedEstate(server.base);
  browser = launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the inline form after a lost answer', () => {
  it('says it could not confirm, never posts again by itself, and Send again stores no second inquiry', async () => {
    const context = await browser.context({ viewport: { width: 390, height: 844 } });
    const { page } = await watchedPage(context, server.base);
    await page.goto(`${server.base}/p/${seeded.slug}`, { waitUntil: 'networkidle' });
    await page.evaluate(() => {
      (window as unknown as { __kept: boolean }).__kept = true;
    });
    const posts: string[] = [];
    await page.route('**/inquiry', async (route) => {
      posts.push(route.request().postData() ?? '');
      if (posts.length === 1) {
        // The server gets it and stores it; the browser only sees the connection fail.
        await route.fetch({ maxRedirects: 0 });
        await route.abort('connectionreset');
      } else await route.continue();
    });
    await page.fill('#inquiry-name', 'Lost Answer');
    await page.fill('#inquiry-email', 'lost@example.com');
    await page.locator('form[data-inquiry-form] [type="submit"]').click();
    const alert = page.locator('form[data-inquiry-form] #inquiry-form-error[role="alert"]');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.textContent()).toMatch(/^We could not confirm that your inquiry arrived\./);
    // No native submission followed: the same document, one post.
    expect(await page.evaluate(() => (window as unknown as { __kept?: boolean }).__kept === true)).toBe(true);
    expect(posts).toHaveLength(1);
    expect(await page.inputValue('#inquiry-name')).toBe('Lost Answer');

    await page.locator('form[data-inquiry-form] [type="submit"]').click();
    await expect.poll(() => page.locator('#inquiry .thanks').count()).toBe(1);
    expect(posts).toHaveLength(2);
    const keys = posts.map((body) => new URLSearchParams(body).get('inquiryKey'));
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    const listed = await fetch(`${server.base}/api/v1/inquiry?estateId=${seeded.estateId}&limit=500`, { headers: { authorization: `Bearer ${seeded.key}` } });
    const items = ((await listed.json()) as { items: Array<{ name: string }> }).items;
    expect(items.filter((i) => i.name === 'Lost Answer')).toHaveLength(1);
    await context.close();
  });
});
