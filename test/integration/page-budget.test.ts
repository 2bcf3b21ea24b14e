import { constants, brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type SeededPage, seedPage } from '../helpers/page-seed.js';

// Issue 34's script budget, as a size (no timing): the first load at most 30 KB of JavaScript, brotli.
// (The page of 2,000 homes within 400 KB of HTML: test/integration/page-size.test.ts.)
describe('the page’s budgets (issue 34)', () => {
  let t: TestApp;
  let a: TestOrg;
  let seed: SeededPage;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Budget A');
    seed = await seedPage(t, a.id, a.key);
    const res = await t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, key: a.key, body: { enabled: true } });
    expect(res.statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  it('the first load carries at most 30 KB of JavaScript, brotli (every script the page names)', async () => {
    const html = (await t.app.inject({ method: 'GET', url: `/p/${seed.slug}` })).body;
    const sources = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThan(0);
    let total = 0;
    for (const src of sources) {
      const res = await t.app.inject({ method: 'GET', url: src, headers: { 'accept-encoding': 'identity' } });
      expect(res.statusCode, src).toBe(200);
      // Its module imports load too: followed within the same origin.
      total += brotliCompressSync(res.rawPayload, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength;
      for (const m of res.body.matchAll(/\bimport\s*(?:[^'"]*from\s*)?["'](\.{0,2}\/[^"']+)["']/g)) {
        const dep = await t.app.inject({ method: 'GET', url: new URL(m[1]!, `http://x${src}`).pathname });
        expect(dep.statusCode, m[1]).toBe(200);
        total += brotliCompressSync(dep.rawPayload, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength;
      }
    }
    // Inline scripts (the words, JSON-LD) are in the HTML's bytes; the script files are what this sums.
    expect(total).toBeGreaterThan(1_000);
    expect(total).toBeLessThanOrEqual(30 * 1024);
  });
});
