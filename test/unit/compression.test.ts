import { Readable } from 'node:stream';
import { constants, brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompressibleBody, FAST_FROM_BYTES, installCompression, negotiateEncoding, sendCompressible } from '../../src/http/compression.js';

/** The compression hook on a Fastify app of its own: HTML (the public page) and JSON compressed, nothing else. */
describe('compression of answers', () => {
  let app: FastifyInstance;
  const html = `<!doctype html><html><body>${'<p>Apartment 3.02, two rooms, balcony</p>'.repeat(100)}</body></html>`;
  const kept = new CompressibleBody(Buffer.from(html));
  // A large answer: about 2,000 table rows, varied enough that brotli 1 and 5 give different bytes.
  const large =
    `<table>${Array.from({ length: 2000 }, (_, i) => `<tr id="a-${(i * 7919).toString(36)}"><td>Unit ${i}</td><td>${40_000_000 + i * 13}</td></tr>`).join('')}</table>`.repeat(
      3,
    );
  const keptLarge = new CompressibleBody(Buffer.from(large));
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(4000, 7)]);

  beforeAll(async () => {
    app = Fastify();
    installCompression(app);
    app.get('/page', (_req, reply) => reply.type('text/html; charset=utf-8').send(html));
    app.get('/kept', (_req, reply) => sendCompressible(reply, kept, 'text/html; charset=utf-8'));
    app.get('/large', (_req, reply) => reply.type('text/html; charset=utf-8').send(large));
    app.get('/kept-large', (_req, reply) => sendCompressible(reply, keptLarge, 'text/html; charset=utf-8'));
    app.get('/small', (_req, reply) => reply.type('application/json').send(JSON.stringify({ ok: true })));
    app.get('/problem', (_req, reply) => reply.type('application/problem+json').send(JSON.stringify({ detail: 'x'.repeat(2000) })));
    app.get('/image', (_req, reply) => reply.type('image/png').send(png));
    app.get('/pdf', (_req, reply) => reply.type('application/pdf').send(Buffer.alloc(4000, 1)));
    app.get('/stream', (_req, reply) => reply.type('text/html').send(Readable.from([html])));
    app.get('/off', { config: { compress: false } }, (_req, reply) => reply.type('text/html').send(html));
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('compresses HTML and JSON over 1 KB in br, else gzip, with Vary', async () => {
    const br = await get('/page', 'gzip, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(html);
    const gzip = await get('/page', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(html);
    expect((await get('/problem', 'br')).headers['content-encoding']).toBe('br');
    const plain = await get('/page');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(html);
    expect(plain.headers.vary).toBe('accept-encoding');
    expect((await get('/small', 'br')).headers['content-encoding']).toBeUndefined();
  });

  it('a kept body is compressed once per encoding', async () => {
    const first = await get('/kept', 'br');
    const promise = kept.encode('br');
    expect(kept.encode('br')).toBe(promise);
    expect((await promise).equals(first.rawPayload)).toBe(true);
    expect(brotliDecompressSync(first.rawPayload).toString()).toBe(html);
  });

  it('a large answer compressed per request gets the fastest setting (brotli 1, gzip 1); a kept one brotli 5 and gzip 6', async () => {
    const bytes = Buffer.from(large);
    expect(bytes.length).toBeGreaterThanOrEqual(FAST_FROM_BYTES);
    const brotli = (quality: number) =>
      brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: quality,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      });
    expect(brotli(1).equals(brotli(5))).toBe(false);
    expect(gzipSync(bytes, { level: 1 }).equals(gzipSync(bytes, { level: 6 }))).toBe(false);
    const br = await get('/large', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(brotli(1))).toBe(true);
    const gzip = await get('/large', 'gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(large);
    expect(gzip.rawPayload.subarray(10).equals(gzipSync(bytes, { level: 1 }).subarray(10))).toBe(true);
    const keptBr = await get('/kept-large', 'br');
    expect(keptBr.rawPayload.equals(brotli(5))).toBe(true);
    const keptGzip = await get('/kept-large', 'gzip');
    expect(keptGzip.rawPayload.subarray(10).equals(gzipSync(bytes, { level: 6 }).subarray(10))).toBe(true);
  });

  it('never compresses images, PDFs, streams or a route that opts out', async () => {
    for (const url of ['/image', '/pdf', '/stream', '/off']) {
      const res = await get(url, 'br, gzip');
      expect(res.headers['content-encoding'], url).toBeUndefined();
    }
    expect((await get('/image', 'br')).rawPayload.equals(png)).toBe(true);
    expect((await get('/image', 'br')).headers.vary).toBeUndefined();
  });

  it('negotiates by the client’s q-values, br first on a tie', () => {
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBeUndefined();
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding(undefined)).toBeUndefined();
  });
});
