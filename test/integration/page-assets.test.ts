import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_ASSETS_PREFIX, pageAssets } from '../../src/modules/pages/client-assets.js';
import { EMBED_CACHE, IMMUTABLE } from '../../src/modules/pages/routes/assets.js';
import { type TestApp, createTestApp } from '../helpers/app.js';

// The public page's static files (issue 27): the embed loader and the hashed, immutable islands.
describe('page assets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('GET /embed.js: under 2 KB of script (with the refused-host message), cached an hour, revalidated by ETag, compressed', async () => {
    const res = await t.request({ method: 'GET', url: '/embed.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe(EMBED_CACHE);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBeLessThan(2000);
    // What it does: reads data-estate from its own tag, frames /p/{slug} of its own origin, takes heights
    // only from that origin and that frame's window, and says hello to that origin only.
    const code = res.body;
    expect(code).toContain('currentScript');
    expect(code).toContain('.estate');
    expect(code).toContain('/p/');
    expect(code).toContain('encodeURIComponent');
    expect(code).toContain('estate-page:height');
    expect(code).toMatch(/\.origin\s*!==?/);
    expect(code).toMatch(/\.source\s*!==?\s*\w+\.contentWindow/);
    expect(code).toContain('estate-page:hello');
    expect(code).not.toContain("'*'");
    expect(code).not.toContain('"*"');

    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.request({ method: 'GET', url: '/embed.js', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);

    const br = await t.request({ method: 'GET', url: '/embed.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(code);
    const gz = await t.request({ method: 'GET', url: '/embed.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(code);
    expect(br.rawPayload.length).toBeLessThan(1000);
  });

  it('the islands and the stylesheet: hashed names, immutable, within the 20 KB script budget', async () => {
    const { script, style } = pageAssets();
    expect(script).toMatch(new RegExp(`^${PAGE_ASSETS_PREFIX}page\\.[\\w]{10}\\.js$`));
    expect(style).toMatch(new RegExp(`^${PAGE_ASSETS_PREFIX}page\\.[\\w]{10}\\.css$`));
    for (const [url, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [style, 'text/css; charset=utf-8'],
    ] as const) {
      const res = await t.request({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(res.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).length).toBeGreaterThan(res.rawPayload.length);
      if (type.startsWith('text/javascript')) expect(res.rawPayload.length).toBeLessThanOrEqual(20 * 1024);
    }
    // Only the built files: another name, a changed hash or a path outside the folder is 404.
    for (const url of [script.replace(/\.\w{10}\.js$/, '.AAAAAAAAAA.js'), `${PAGE_ASSETS_PREFIX}manifest.json`, `${PAGE_ASSETS_PREFIX}..%2Fmanifest.json`]) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('GET /favicon.ico: empty, cached a day (a page naming no icon logs no 404)', async () => {
    const res = await t.request({ method: 'GET', url: '/favicon.ico' });
    expect(res.statusCode).toBe(204);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.rawPayload.length).toBe(0);
  });
});
