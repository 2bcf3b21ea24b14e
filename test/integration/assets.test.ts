import { createHash } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../clients/typescript/src/index.js';
import { S3BlobStore } from '../../src/storage/s3.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createProject } from '../helpers/factories.js';
import { type Driver, type ObservedStore, csv, diskDriver, dwg, dxf, jpeg, mp4, multipart, pdf, png, s3Driver, svg, zip } from './assets-fixtures.js';

const MB20 = 20 * 1024 * 1024;

/** An asset as the served document describes it (the typed client's generated schema). */
type AssetJson = Schemas['Asset'];

describe.each(['disk', 's3'] as const)('assets on %s storage', (driverName) => {
  let driver: Driver;
  let t: TestApp;
  let store: ObservedStore;
  let a: TestOrg;
  let b: TestOrg;
  let readOnlyA: string;

  beforeAll(async () => {
    driver = driverName === 'disk' ? diskDriver() : await s3Driver();
    t = await createTestApp({ storage: (dir) => driver.make(dir) });
    store = t.storage as ObservedStore;
    a = await t.createOrg();
    b = await t.createOrg();
    readOnlyA = (await t.issueKey(a.id, ['read'])).key;
  });
  afterAll(async () => {
    await t?.close();
    await driver?.stop();
  });

  const upload = (key: string | undefined, file: Parameters<typeof multipart>[0], fields?: Record<string, string>) => {
    const { body, headers } = multipart(file, fields);
    return t.request({ method: 'POST', url: '/api/v1/asset/upload', key, body, headers });
  };
  const uploadOk = async (file: Parameters<typeof multipart>[0], key = a.key) => {
    const res = await upload(key, file);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as AssetJson;
  };
  const filePath = (asset: AssetJson) => new URL(asset.src).pathname;
  const rowCount = async () => Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM assets'))[0]!.n);

  it.each([
    ['PNG', 'photo.png', 'image/png', png(), 'image/png'],
    ['JPEG', 'photo.jpg', 'image/jpeg', jpeg(), 'image/jpeg'],
    ['MP4', 'tour.mp4', 'video/mp4', mp4(), 'video/mp4'],
    ['PDF', 'brochure.pdf', 'application/pdf', pdf(), 'application/pdf'],
    ['ZIP', 'plans.zip', 'application/zip', zip(), 'application/zip'],
    ['DWG', 'plan.dwg', 'application/octet-stream', dwg(), 'image/vnd.dwg'],
    ['DXF', 'plan.dxf', 'application/octet-stream', dxf(), 'image/vnd.dxf'],
    ['CSV', 'prices.csv', 'text/csv', csv(), 'text/csv'],
  ])('stores a %s with the type of its content and serves the same bytes', async (_label, filename, declared, data, expected) => {
    const asset = await uploadOk({ filename, type: declared, data });
    expect(asset).toMatchObject({ name: filename, mimeType: expected, sizeBytes: data.length, sha256: createHash('sha256').update(data).digest('hex') });
    expect(asset.src).toBe(`http://localhost:3000/files/${a.id}/${asset.id}`);
    const served = await t.request({ method: 'GET', url: filePath(asset) });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(data)).toBe(true);
    expect(served.headers['content-type']).toBe(expected);
    expect(served.headers.etag).toBe(`"${asset.sha256}"`);
  });

  it('trusts the bytes, not the declared type or the name: a PNG sent as x.bin is image/png', async () => {
    expect((await uploadOk({ filename: 'x.bin', type: 'application/octet-stream', data: png() })).mimeType).toBe('image/png');
    // A binary declared as CSV is not a CSV.
    expect((await uploadOk({ filename: 'fake.csv', type: 'text/csv', data: Buffer.from([0, 1, 2, 3, 0, 255]) })).mimeType).toBe('application/octet-stream');
  });

  it('takes the name from a name field sent before the file', async () => {
    const res = await upload(a.key, { filename: 'IMG_0001.png', type: 'image/png', data: png() }, { name: 'Living room' });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('Living room');
  });

  it('accepts exactly 20 MB and refuses 20 MB + 1 byte with 413, keeping nothing', async () => {
    const ok = await uploadOk({ filename: 'max.bin', type: 'application/octet-stream', data: Buffer.alloc(MB20, 7) });
    expect(ok.sizeBytes).toBe(MB20);
    const rowsBefore = await rowCount();
    const storedBefore = await driver.listAll(t.dataDir);
    const res = await upload(a.key, { filename: 'big.bin', type: 'application/octet-stream', data: Buffer.alloc(MB20 + 1, 7) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    expect(res.json().message).toMatch(/file/);
    expect(await store.puts.at(-1)).toBe('failed');
    expect(await rowCount()).toBe(rowsBefore);
    expect(await driver.listAll(t.dataDir)).toEqual(storedBefore);
  });

  it('leaves no file and no row when the client disconnects mid-upload', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const rowsBefore = await rowCount();
    const storedBefore = await driver.listAll(t.dataDir);
    const { body, headers } = multipart({ filename: 'cut.bin', type: 'application/octet-stream', data: Buffer.alloc(8 * 1024 * 1024, 3) });
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    const started = store.nextPut();
    socket.write(
      `POST /api/v1/asset/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${a.key}\r\nContent-Type: ${headers['content-type']}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.subarray(0, 2 * 1024 * 1024));
    await started;
    socket.destroy();
    expect(await store.puts.at(-1)).toBe('failed');
    expect(await rowCount()).toBe(rowsBefore);
    expect(await driver.listAll(t.dataDir)).toEqual(storedBefore);
  });

  it('answers 4xx naming the problem for unreadable uploads', async () => {
    const json = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: a.key, body: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toMatch(/multipart/);
    const wrongField = await upload(a.key, { field: 'document', filename: 'a.png', type: 'image/png', data: png() });
    expect(wrongField.statusCode).toBe(422);
    expect(wrongField.json().message).toMatch(/file is required/);
    const blankName = await upload(a.key, { filename: 'a.png', type: 'image/png', data: png() }, { name: ' ' });
    expect(blankName.statusCode).toBe(422);
    expect(blankName.json().message).toMatch(/name/);
    // Only the upload route parses multipart: the rest of the API still refuses non-JSON bodies.
    const { body, headers } = multipart({ filename: 'a.png', type: 'image/png', data: png() });
    const elsewhere = await t.request({ method: 'POST', url: '/api/v1/asset', key: a.key, body, headers });
    expect(elsewhere.statusCode).toBe(400);
  });

  it('refuses a multipart body without a file part', async () => {
    const boundary = 'only-fields';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nNo file\r\n--${boundary}--\r\n`;
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/asset/upload',
      key: a.key,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/file is required/);
  });

  it('reports the store in readiness', async () => {
    const res = await t.request({ method: 'GET', url: '/health/ready' });
    expect(res.json()).toMatchObject({ checks: { storage: 'ok' } });
  });

  it('needs a key with write scope to upload', async () => {
    expect((await upload(undefined, { filename: 'a.png', type: 'image/png', data: png() })).statusCode).toBe(401);
    const ro = await upload(readOnlyA, { filename: 'a.png', type: 'image/png', data: png() });
    expect(ro.statusCode).toBe(403);
  });

  it('lists the organization’s assets newest first, pages them and filters by MIME prefix', async () => {
    const org = await t.createOrg();
    const first = await uploadOk({ filename: '1.png', type: 'image/png', data: png() }, org.key);
    const second = await uploadOk({ filename: '2.pdf', type: 'application/pdf', data: pdf() }, org.key);
    const third = await uploadOk({ filename: '3.jpg', type: 'image/jpeg', data: jpeg() }, org.key);
    const list = await t.request({ method: 'GET', url: '/api/v1/asset', key: org.key });
    expect(list.statusCode).toBe(200);
    expect((list.json() as AssetJson[]).map((x) => x.id)).toEqual([third.id, second.id, first.id]);
    const images = await t.request({ method: 'GET', url: '/api/v1/asset', key: org.key, query: { mimeType: 'image/' } });
    expect((images.json() as AssetJson[]).map((x) => x.id)).toEqual([third.id, first.id]);
    expect(list.headers['x-total-count']).toBe('3');
    expect(list.headers.link).toBeUndefined();
    expect(images.headers['x-total-count']).toBe('2');
    const page = await t.request({ method: 'GET', url: '/api/v1/asset', key: org.key, query: { offset: '1', limit: '1' } });
    expect((page.json() as AssetJson[]).map((x) => x.id)).toEqual([second.id]);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.headers.link).toBe('</api/v1/asset?offset=2&limit=1>; rel="next", </api/v1/asset?offset=0&limit=1>; rel="prev"');
    const imagePage = await t.request({ method: 'GET', url: '/api/v1/asset', key: org.key, query: { mimeType: 'image/', limit: '1' } });
    expect(imagePage.headers['x-total-count']).toBe('2');
    expect(imagePage.headers.link).toBe('</api/v1/asset?mimeType=image%2F&limit=1&offset=1>; rel="next"');
    const wildcard = await t.request({ method: 'GET', url: '/api/v1/asset', key: org.key, query: { mimeType: '%' } });
    expect(wildcard.json()).toEqual([]);
    const bad = await t.request({ method: 'GET', url: '/api/v1/asset', key: org.key, query: { limit: 'abc' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/limit/);
    const foreign = await t.request({ method: 'GET', url: '/api/v1/asset', key: b.key });
    expect((foreign.json() as AssetJson[]).some((x) => [first.id, second.id, third.id].includes(x.id))).toBe(false);
  });

  it('reads one asset; another organization’s or a malformed id is 404', async () => {
    const asset = await uploadOk({ filename: 'one.png', type: 'image/png', data: png() });
    const own = await t.request({ method: 'GET', url: `/api/v1/asset/${asset.id}`, key: a.key });
    // The placeholder may have been made in between (variants are made after the upload answers).
    expect(own.json()).toEqual({
      ...asset,
      placeholder: own.json().placeholder,
      usedBy: { apartments: [], gallery: [], investment: [], downloads: [], mapLogo: [], navigatorFrames: [] },
    });
    const foreign = await t.request({ method: 'GET', url: `/api/v1/asset/${asset.id}`, key: b.key });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ statusCode: 404, error: 'Not Found', message: `Asset with id ${asset.id} not found` });
    expect((await t.request({ method: 'GET', url: '/api/v1/asset/not-a-uuid', key: a.key })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/asset/${asset.id}`, key: b.key })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/asset/${asset.id}`, key: readOnlyA })).statusCode).toBe(403);
  });

  it('keeps assetsIds within the organization', async () => {
    const asset = await uploadOk({ filename: 'plan.png', type: 'image/png', data: png() });
    const mine = await createProject(t, a.key);
    const theirs = await createProject(t, b.key);
    const foreign = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${theirs.apartment.id}`, key: b.key, body: { assetsIds: [asset.id] } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(`Asset with id ${asset.id} not found`);
    const own = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${mine.apartment.id}`, key: a.key, body: { assetsIds: [asset.id] } });
    expect(own.statusCode).toBe(200);
  });

  it('deletes the row and the file; apartments keep the id', async () => {
    const asset = await uploadOk({ filename: 'gone.png', type: 'image/png', data: png() });
    const { apartment } = await createProject(t, a.key);
    await t.request({ method: 'PATCH', url: `/api/v1/apartment/${apartment.id}`, key: a.key, body: { assetsIds: [asset.id] } });
    const key = `${a.id}/${asset.id}`;
    expect(await t.storage.stat(key)).toBeDefined();
    const del = await t.request({ method: 'DELETE', url: `/api/v1/asset/${asset.id}`, key: a.key });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect(await t.storage.stat(key)).toBeUndefined();
    expect((await driver.listAll(t.dataDir)).some((k) => k.includes(asset.id))).toBe(false);
    expect((await t.request({ method: 'GET', url: `/api/v1/asset/${asset.id}`, key: a.key })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: filePath(asset) })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/asset/${asset.id}`, key: a.key })).statusCode).toBe(404);
    const apt = await t.request({ method: 'GET', url: `/api/v1/apartment/${apartment.id}`, key: a.key });
    expect(apt.json().assetsIds).toEqual([asset.id]);
  });

  it('removes add-on items that show the asset when it is deleted, in the same transaction', async () => {
    const asset = await uploadOk({ filename: 'gallery.png', type: 'image/png', data: png() });
    const { estate } = await createProject(t, a.key);
    const item = await t.request({
      method: 'POST',
      url: `/api/v1/estates/${estate.id}/gallery/items`,
      key: a.key,
      body: { assetId: asset.id, caption: 'Facade' },
    });
    expect(item.statusCode, item.body).toBe(201);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/asset/${asset.id}`, key: a.key });
    expect(del.statusCode).toBe(204);
    const gallery = await t.request({ method: 'GET', url: `/api/v1/estates/${estate.id}/gallery`, key: a.key });
    expect(gallery.statusCode).toBe(200);
    expect(gallery.body).not.toContain(asset.id);
  });

  describe('file serving', () => {
    let asset: AssetJson;
    const data = pdf();
    beforeAll(async () => {
      const res = await upload(a.key, { filename: 'brochure.pdf', type: 'application/pdf', data }, { name: 'Brochure "final" łódź.pdf' });
      asset = res.json() as AssetJson;
    });

    it('sends type, length, ETag, immutable caching and nosniff', async () => {
      const res = await t.request({ method: 'GET', url: filePath(asset) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-length']).toBe(String(data.length));
      expect(res.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
      expect(res.headers['cache-control']).toContain('immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers['content-disposition']).toBe(
        `inline; filename="Brochure _final_ __d_.pdf"; filename*=UTF-8''${encodeURIComponent('Brochure "final" łódź.pdf')}`,
      );
    });

    it('answers HEAD with the headers and no body', async () => {
      const res = await t.request({ method: 'HEAD', url: filePath(asset) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-length']).toBe(String(data.length));
      expect(res.body).toBe('');
    });

    it('answers If-None-Match with 304', async () => {
      const first = await t.request({ method: 'GET', url: filePath(asset) });
      const again = await t.request({ method: 'GET', url: filePath(asset), headers: { 'if-none-match': String(first.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const other = await t.request({ method: 'GET', url: filePath(asset), headers: { 'if-none-match': '"something-else"' } });
      expect(other.statusCode).toBe(200);
    });

    it('serves byte ranges with 206 and refuses ranges past the end with 416', async () => {
      const part = await t.request({ method: 'GET', url: filePath(asset), headers: { range: 'bytes=2-6' } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 2-6/${data.length}`);
      expect(part.headers['content-length']).toBe('5');
      expect(part.rawPayload.equals(data.subarray(2, 7))).toBe(true);
      const suffix = await t.request({ method: 'GET', url: filePath(asset), headers: { range: 'bytes=-4' } });
      expect(suffix.statusCode).toBe(206);
      expect(suffix.rawPayload.equals(data.subarray(data.length - 4))).toBe(true);
      const open = await t.request({ method: 'GET', url: filePath(asset), headers: { range: 'bytes=10-' } });
      expect(open.rawPayload.equals(data.subarray(10))).toBe(true);
      const past = await t.request({ method: 'GET', url: filePath(asset), headers: { range: `bytes=${data.length}-` } });
      expect(past.statusCode).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${data.length}`);
    });

    it('serves SVG as a sandboxed attachment so its script cannot run', async () => {
      const image = await uploadOk({ filename: 'logo.svg', type: 'image/svg+xml', data: svg() });
      expect(image.mimeType).toBe('image/svg+xml');
      const res = await t.request({ method: 'GET', url: filePath(image) });
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('is 404 for unknown or malformed keys, and for a key under another organization', async () => {
      expect((await t.request({ method: 'GET', url: `/files/${a.id}/00000000-0000-7000-8000-000000000000` })).statusCode).toBe(404);
      expect((await t.request({ method: 'GET', url: '/files/..%2F..%2Fetc/passwd' })).statusCode).toBe(404);
      expect((await t.request({ method: 'GET', url: `/files/${b.id}/${asset.id}` })).statusCode).toBe(404);
    });
  });
});

describe('S3_PUBLIC_URL', () => {
  it('points src at the bucket when S3_PUBLIC_URL is set, stored with the sniffed type', async () => {
    const driver = await s3Driver();
    const bucketUrl = driver.bucketUrl!;
    const port = new URL(bucketUrl).port;
    const direct = new S3BlobStore({
      bucket: 'assets',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      publicBaseUrl: bucketUrl,
    });
    const other = await createTestApp({ storage: () => direct });
    try {
      const org = await other.createOrg();
      const { body, headers } = multipart({ filename: 'x.bin', type: 'application/octet-stream', data: png() });
      const res = await other.request({ method: 'POST', url: '/api/v1/asset/upload', key: org.key, body, headers });
      expect(res.statusCode).toBe(201);
      const asset = res.json() as AssetJson;
      expect(asset.src).toBe(`${bucketUrl}/${org.id}/${asset.id}`);
      const fromBucket = await fetch(asset.src);
      expect(fromBucket.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await fromBucket.arrayBuffer()).equals(png())).toBe(true);
    } finally {
      await other.close();
      direct.close();
      await driver.stop();
    }
  });
});
