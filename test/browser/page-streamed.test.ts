import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchChromium } from './chromium.js';
import { layoutShift, scrollThrough, watchedPage } from './page-kit.js';
import { seedEstate } from './seed.js';
import { type PageServer, startPageServer } from './server.js';

// The page as a slow connection delivers it: its HTML in 2 KB pieces 40 ms apart, so Chromium paints while
// the parser is still inside the sidebar (a loaded CI host did this by chance: the filters and the list's
// columns moved when the rest of their rows arrived). No layout shift either way (issue 34: CLS 0).

let server: PageServer;
let browser: Browser;
let slow: Server;
let slowBase: string;
let slug: string;

beforeAll(async () => {
  server = await startPageServer();
  slug = (await seedEstate(server.base)).slug;
  browser = launchChromium();
  // A proxy on its own port: the page's HTML trickles, everything else (CSS, JS, images) passes at once.
  slow = createServer(async (req, res) => {
    const upstream = await fetch(`${server.base}${req.url}`, { headers: { accept: req.headers.accept ?? '*/*', 'accept-encoding': 'identity' } });
    const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
    const body = Buffer.from(await upstream.arrayBuffer());
    res.writeHead(upstream.status, { 'content-type': type, 'cache-control': 'no-store' });
    if (!type.startsWith('text/html')) return res.end(body);
    for (let at = 0; at < body.length; at += 2048) {
      res.write(body.subarray(at, at + 2048));
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    res.end();
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  slowBase = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => slow?.close(resolve));
  await server?.stop();
});

describe.each([390, 1366])('the page streamed slowly at %i px wide', (width) => {
  it('paints without a layout shift while its HTML arrives', async () => {
    const context = await browser.context({ viewport: { width, height: width < 600 ? 844 : 900 }, deviceScaleFactor: 1 });
    try {
      const w = await watchedPage(context, slowBase);
      await w.page.goto(`${slowBase}/p/${slug}`, { waitUntil: 'networkidle' });
      await scrollThrough(w.page);
      expect(await layoutShift(w.page)).toEqual([]);
      expect(await w.page.locator('#apartments tbody tr[data-apartment-id]').count()).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });
});
