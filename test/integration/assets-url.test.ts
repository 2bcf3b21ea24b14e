import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { openRemoteFile } from '../../src/modules/assets/fetch-remote.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { csv, png } from './assets-fixtures.js';

/** A loopback server the tests own; it counts requests so a refusal can be shown to happen before any connection. */
function startOrigin() {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const port = (server.address() as AddressInfo).port;
    switch (req.url) {
      case '/photo.png':
        return res.writeHead(200, { 'content-type': 'image/png' }).end(png());
      case '/files/prices.csv':
        return res.writeHead(200, { 'content-type': 'text/csv' }).end(csv());
      case '/redirect':
        return res.writeHead(302, { location: '/photo.png' }).end();
      case '/loop':
        return res.writeHead(302, { location: '/loop' }).end();
      case '/to-v6-loopback':
        return res.writeHead(302, { location: `http://[::1]:${port}/photo.png` }).end();
      case '/to-private':
        return res.writeHead(301, { location: 'http://10.1.2.3/photo.png' }).end();
      case '/to-metadata':
        return res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      case '/to-credentials':
        return res.writeHead(302, { location: `http://user:secret@127.0.0.1:${port}/photo.png` }).end();
      case '/empty.png':
        return res.writeHead(200, { 'content-type': 'image/png', 'content-length': '0' }).end();
      case '/to-v4-compatible':
        return res.writeHead(302, { location: `http://[::127.0.0.1]:${port}/photo.png` }).end();
      case '/to-file':
        return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      case '/huge':
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(100 * 1024 * 1024 + 1) });
        return res.write(Buffer.alloc(1024));
      default:
        return res.writeHead(404).end('no');
    }
  });
  return {
    hits,
    server,
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
  };
}

describe('registering an asset by URL', () => {
  const origin = startOrigin();
  let base: string;
  let allowed: TestApp;
  let strict: TestApp;
  let a: TestOrg;
  let s: TestOrg;

  beforeAll(async () => {
    base = await origin.listen();
    allowed = await createTestApp({ env: { ALLOW_PRIVATE_ASSET_URLS: 'true' } });
    strict = await createTestApp({ env: { ALLOW_PRIVATE_URLS: 'false' } });
    a = await allowed.createOrg();
    s = await strict.createOrg();
  });
  afterAll(async () => {
    await allowed?.close();
    await strict?.close();
    origin.server.close();
  });

  const register = (t: TestApp, key: string, body: unknown) => t.request({ method: 'POST', url: '/api/v1/asset', key, body });

  it('downloads the file, stores its own copy and sniffs its type (private URLs allowed)', async () => {
    const res = await register(allowed, a.key, { src: `${base}/photo.png`, name: 'Facade' });
    expect(res.statusCode, res.body).toBe(201);
    const asset = res.json();
    expect(asset).toMatchObject({ name: 'Facade', mimeType: 'image/png', sizeBytes: png().length });
    const served = await allowed.request({ method: 'GET', url: new URL(asset.src).pathname });
    expect(served.rawPayload.equals(png())).toBe(true);
  });

  it('names the asset after the URL’s file, follows redirects and keeps text types', async () => {
    const viaRedirect = await register(allowed, a.key, { src: `${base}/redirect` });
    expect(viaRedirect.statusCode).toBe(201);
    expect(viaRedirect.json()).toMatchObject({ name: 'photo.png', mimeType: 'image/png' });
    const text = await register(allowed, a.key, { src: `${base}/files/prices.csv` });
    expect(text.json()).toMatchObject({ name: 'prices.csv', mimeType: 'text/csv' });
  });

  it('answers 4xx naming the cause when the download fails', async () => {
    const missing = await register(allowed, a.key, { src: `${base}/nothing-here` });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Could not download src: the server answered 404');
    const loop = await register(allowed, a.key, { src: `${base}/loop` });
    expect(loop.statusCode).toBe(422);
    expect(loop.json().message).toMatch(/redirects more than 5 times/);
    const toFile = await register(allowed, a.key, { src: `${base}/to-file` });
    expect(toFile.statusCode).toBe(422);
    expect(toFile.json().message).toMatch(/redirects to a file URL/);
    const huge = await register(allowed, a.key, { src: `${base}/huge` });
    expect(huge.statusCode).toBe(422);
    expect(huge.json().message).toMatch(/larger than the 100 MB limit/);
    const closed = await register(allowed, a.key, { src: 'http://127.0.0.1:1/x.png' });
    expect(closed.statusCode).toBe(400);
    expect(closed.json().message).toMatch(/connection was refused/);
  });

  it('validates the body: src required, http(s) only, no credentials, no unknown fields', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /src is required/],
      [{ src: 42 }, /src must be string/],
      [{ src: 'not a url' }, /src must be an absolute http or https URL/],
      [{ src: 'ftp://example.com/a.png' }, /src must use http or https, not ftp/],
      [{ src: 'file:///etc/passwd' }, /src must use http or https, not file/],
      [{ src: 'http://user:pw@example.com/a.png' }, /credentials/],
      [{ src: `${base}/photo.png`, extra: 1 }, /extra is not allowed/],
      [{ src: `${base}/photo.png`, name: '' }, /name/],
    ];
    for (const [body, message] of cases) {
      const res = await register(allowed, a.key, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().message).toMatch(message);
    }
  });

  it('refuses loopback, private, link-local, metadata and IPv4-mapped addresses without connecting', async () => {
    const port = new URL(base).port;
    const before = origin.hits.length;
    const refused: Array<[string, RegExp]> = [
      [`http://127.0.0.1:${port}/photo.png`, /loopback address \(127\.0\.0\.1\)/],
      [`http://localhost:${port}/photo.png`, /resolves to a loopback address/],
      ['http://10.0.0.1/photo.png', /private address \(10\.0\.0\.1\)/],
      ['http://169.254.169.254/latest/meta-data/', /metadata address \(169\.254\.169\.254\)/],
      [`http://[::1]:${port}/photo.png`, /loopback address \(::1\)/],
      [`http://[::ffff:127.0.0.1]:${port}/photo.png`, /loopback address \(::ffff:7f00:1\)|loopback address/],
      ['http://0.0.0.0/x', /unspecified address/],
      ['http://192.168.1.10/x', /private address/],
    ];
    for (const [src, message] of refused) {
      const res = await register(strict, s.key, { src });
      expect(res.statusCode, src).toBe(422);
      expect(res.json().message, src).toMatch(message);
    }
    expect(origin.hits.length, 'the loopback server was never reached').toBe(before);
    const rows = await strict.db.query('SELECT id FROM assets');
    expect(rows).toEqual([]);
  });

  it('refuses IPv6 forms that embed a refused IPv4 address (compatible, mapped, SIIT, NAT64, 6to4, Teredo), without connecting', async () => {
    const port = new URL(base).port;
    const before = origin.hits.length;
    // Teredo stores the client inverted: 0x80ff:0xfefe is 127.0.1.1, the server 10.0.0.1 sits in the clear.
    const refused: Array<[string, RegExp]> = [
      [`http://[::127.0.0.1]:${port}/photo.png`, /loopback address \(::7f00:1 embeds 127\.0\.0\.1\)/],
      ['http://[::8.8.8.8]/photo.png', /IPv4-compatible|only public addresses/],
      ['http://[::ffff:10.0.0.1]/photo.png', /private address/],
      ['http://[::ffff:0:127.0.0.1]/photo.png', /loopback address/],
      ['http://[64:ff9b::127.0.0.1]/photo.png', /loopback address \(64:ff9b::7f00:1 embeds 127\.0\.0\.1\)/],
      ['http://[64:ff9b::169.254.169.254]/latest/meta-data/', /metadata address/],
      ['http://[64:ff9b:1:7f00:1::]/photo.png', /only public addresses/],
      ['http://[2002:7f00:1::1]/photo.png', /loopback address \(2002:7f00:1::1 embeds 127\.0\.0\.1\)/],
      ['http://[2002:a9fe:a9fe::1]/', /metadata address/],
      ['http://[2001:0:a00:1::80ff:fefe]/photo.png', /private address|loopback address/],
      ['http://[::]/photo.png', /unspecified address/],
    ];
    for (const [src, message] of refused) {
      const res = await register(strict, s.key, { src });
      expect(res.statusCode, src).toBe(422);
      expect(res.json().message, src).toMatch(message);
    }
    // With private addresses allowed, an embedded metadata address is still refused.
    for (const src of ['http://[::ffff:169.254.169.254]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[2002:a9fe:a9fe::]/', 'http://[::169.254.169.254]/']) {
      const res = await register(allowed, a.key, { src });
      expect(res.statusCode, src).toBe(422);
      expect(res.json().message, src).toMatch(/metadata address/);
    }
    expect(origin.hits.length, 'the loopback server was never reached').toBe(before);
    expect(await strict.db.query('SELECT id FROM assets')).toEqual([]);
  });

  it('refuses a redirect to a URL carrying credentials, as it refuses such a src (private addresses allowed)', async () => {
    const before = await allowed.db.query('SELECT id FROM assets');
    const hitsBefore = origin.hits.length;
    const res = await register(allowed, a.key, { src: `${base}/to-credentials` });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('src redirects to a URL that must not contain credentials');
    expect(origin.hits.slice(hitsBefore)).toEqual(['/to-credentials']);
    expect(await allowed.db.query('SELECT id FROM assets')).toEqual(before);
  });

  it('refuses an empty remote file with 422 and keeps nothing', async () => {
    const before = await allowed.db.query('SELECT id FROM assets');
    const res = await register(allowed, a.key, { src: `${base}/empty.png` });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('src is an empty file (0 bytes)');
    expect(await allowed.db.query('SELECT id FROM assets')).toEqual(before);
  });

  it('keeps refusing the metadata address even when private addresses are allowed, also after a redirect', async () => {
    const direct = await register(allowed, a.key, { src: 'http://169.254.169.254/latest/meta-data/' });
    expect(direct.statusCode).toBe(422);
    const redirected = await register(allowed, a.key, { src: `${base}/to-metadata` });
    expect(redirected.statusCode).toBe(422);
    expect(redirected.json().message).toMatch(/metadata address/);
  });

  it('re-checks every redirect: an allowed first hop cannot lead to a refused address', async () => {
    const opts = { allowPrivate: false, allowAddresses: ['127.0.0.1'], maxBytes: 1024 * 1024, maxRedirects: 5, connectTimeoutMs: 2000, totalTimeoutMs: 5000 };
    for (const [path, message] of [
      ['/to-v6-loopback', /loopback address \(::1\)/],
      ['/to-private', /private address \(10\.1\.2\.3\)/],
      ['/to-metadata', /metadata address/],
      ['/to-v4-compatible', /loopback address \(::7f00:1 embeds 127\.0\.0\.1\)/],
    ] as const) {
      const hitsBefore = origin.hits.length;
      const err = await openRemoteFile(`${base}${path}`, opts).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, path).toBeInstanceOf(AppError);
      expect((err as AppError).statusCode).toBe(422);
      expect((err as AppError).message).toMatch(message);
      // Only the first (allowed) hop reached the server.
      expect(origin.hits.slice(hitsBefore)).toEqual([path]);
    }
  });
});
