import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { newId } from '../../src/ids.js';
import { storageIntents } from '../../src/modules/assets/intents.js';
import { sweepOrphans } from '../../src/modules/assets/orphans.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type Driver, diskDriver, imageUploads, multipart, s3Driver, svg } from './assets-fixtures.js';
import { animatedGif, cmykJpeg, jpegWithGps, png16, pngBomb, pngWithAlpha, truncatedJpeg } from './image-fixtures.js';

interface Variant {
  width: number;
  height: number;
  mimeType: string;
  src: string;
  sizeBytes: number | null;
}
interface ImageAsset {
  id: string;
  name: string;
  src: string;
  mimeType: string;
  sizeBytes: number;
  width: number | null;
  height: number | null;
  hasLocation: boolean;
  placeholder: string | null;
  variants: Variant[];
}

const pathOf = (src: string) => new URL(src).pathname;

describe.each(['disk', 's3'] as const)('images on %s storage', (driverName) => {
  let driver: Driver;
  let t: TestApp;
  let a: TestOrg;

  beforeAll(async () => {
    driver = driverName === 'disk' ? diskDriver() : await s3Driver();
    t = await createTestApp({ storage: (dir) => driver.make(dir) });
    a = await t.createOrg();
  });
  afterAll(async () => {
    await t?.close();
    await driver?.stop();
  });

  const { upload, settled } = imageUploads<ImageAsset>(() => ({ t, key: a.key }));
  const fetchFile = (src: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url: pathOf(src), headers });
  const storedKeys = async () => (await driver.listAll(t.dataDir)).map((k) => k.replace(/\\/g, '/'));

  it('a camera JPEG (EXIF orientation 6, GPS): oriented size at once, WebP variants without metadata after, original as uploaded', async () => {
    const data = await jpegWithGps();
    const asset = await upload('site.jpg', 'image/jpeg', data);
    // The upload answers with the size after orientation (1600 x 1200 stored, shown portrait) and the plan.
    expect(asset).toMatchObject({ width: 1200, height: 1600, hasLocation: true, mimeType: 'image/jpeg' });
    expect(asset.variants.map((v) => [v.width, v.height])).toEqual([
      [320, 427],
      [640, 853],
    ]);

    const done = await settled(asset.id);
    expect(done.placeholder).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(done.variants.map((v) => v.src)).toEqual(asset.variants.map((v) => v.src));
    for (const v of done.variants) {
      expect(v.mimeType).toBe('image/webp');
      expect(v.src).toBe(`http://localhost:3000/files/${a.id}/${asset.id}-w${v.width}`);
      const res = await fetchFile(v.src);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(Number(res.headers['content-length'])).toBe(v.sizeBytes);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: v.width, height: v.height });
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(res.rawPayload.includes(Buffer.from('SERIAL-12345'))).toBe(false);
      // Revalidation and ranges as for originals.
      expect((await fetchFile(v.src, { 'if-none-match': res.headers.etag as string })).statusCode).toBe(304);
      const part = await fetchFile(v.src, { range: 'bytes=0-9' });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.equals(res.rawPayload.subarray(0, 10))).toBe(true);
    }
    // The original is served byte for byte, EXIF and all (hasLocation tells the client).
    const original = await fetchFile(asset.src);
    expect(original.rawPayload.equals(data)).toBe(true);
  });

  it.each([
    ['PNG with alpha', 'alpha.png', 'image/png', pngWithAlpha, 700, 500, [320, 640]],
    ['CMYK JPEG', 'cmyk.jpg', 'image/jpeg', cmykJpeg, 800, 600, [320, 640]],
    ['16-bit PNG', 'deep.png', 'image/png', png16, 900, 400, [320, 640]],
    ['animated GIF (first frame)', 'anim.gif', 'image/gif', animatedGif, 400, 300, [320]],
  ])('%s: size and sRGB 8-bit WebP variants', async (_label, filename, type, make, width, height, widths) => {
    const asset = await upload(filename, type, await make());
    expect(asset).toMatchObject({ width, height, hasLocation: false });
    const done = await settled(asset.id);
    expect(done.variants.map((v) => v.width)).toEqual(widths);
    expect(done.placeholder).not.toBeNull();
    for (const v of done.variants) {
      const res = await fetchFile(v.src);
      expect(res.statusCode).toBe(200);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: v.width, height: v.height, space: 'srgb', depth: 'uchar' });
      expect(meta.pages ?? 1).toBe(1);
      if (filename === 'alpha.png') expect(meta.hasAlpha).toBe(true);
    }
  });

  it('a truncated JPEG is decoded as far as its data goes (as a browser shows it): the size and variants of its upload answer hold', async () => {
    const data = await truncatedJpeg();
    const asset = await upload('cut.jpg', 'image/jpeg', data);
    expect(asset).toMatchObject({ width: 1000, height: 800 });
    const done = await settled(asset.id);
    expect(done).toMatchObject({ width: 1000, height: 800, placeholder: expect.any(String) });
    expect(done.variants.map((v) => [v.width, v.height])).toEqual(asset.variants.map((v) => [v.width, v.height]));
    for (const v of asset.variants) expect((await fetchFile(v.src)).statusCode).toBe(200);
    expect((await fetchFile(asset.src)).rawPayload.equals(data)).toBe(true);
  });

  it.each([
    ['a decompression bomb (100,000 x 100,000 declared)', 'bomb.png', 'image/png', async () => pngBomb()],
    [
      'a file that claims to be a JPEG but is not one',
      'fake.jpg',
      'image/jpeg',
      async () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 7)]),
    ],
  ])('%s keeps its asset, with no size and no variants', async (_label, filename, type, make) => {
    const data = await make();
    const asset = await upload(filename, type, data);
    const done = await settled(asset.id);
    expect(done).toMatchObject({ width: null, height: null, variants: [], placeholder: null });
    expect((await fetchFile(`${asset.src}-w320`)).statusCode).toBe(404);
    expect((await fetchFile(asset.src)).rawPayload.equals(data)).toBe(true);
    expect((await storedKeys()).filter((k) => k.includes(`${asset.id}-w`))).toEqual([]);
  });

  it('a keyed upload (its work commits with the stored answer) gets its variants too; a replay queues nothing new', async () => {
    const { body, headers } = multipart({ filename: 'keyed.png', type: 'image/png', data: await pngWithAlpha() });
    const send = () =>
      t.request({ method: 'POST', url: '/api/v1/asset/upload', key: a.key, body, headers: { ...headers, 'idempotency-key': `img-${driverName}` } });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const done = await settled(first.json().id);
    expect(done.variants.map((v) => typeof v.sizeBytes)).toEqual(['number', 'number']);
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(done.id);
  });

  it('an SVG is never rasterised: no size, no variants, no placeholder', async () => {
    const asset = await upload('logo.svg', 'image/svg+xml', svg());
    expect(asset).toMatchObject({ mimeType: 'image/svg+xml', width: null, height: null, variants: [], placeholder: null, hasLocation: false });
    expect(await settled(asset.id)).toMatchObject({ width: null, variants: [], placeholder: null });
    expect((await fetchFile(`${asset.src}-w320`)).statusCode).toBe(404);
  });

  it('a width that is not one of the asset’s variants is 404, also for another organization’s path', async () => {
    const asset = await upload('small.png', 'image/png', await pngWithAlpha());
    await settled(asset.id);
    expect((await fetchFile(`${asset.src}-w1280`)).statusCode).toBe(404);
    expect((await fetchFile(`${asset.src}-w999`)).statusCode).toBe(404);
    const other = await t.createOrg();
    expect((await t.request({ method: 'GET', url: `/files/${other.id}/${asset.id}-w320` })).statusCode).toBe(404);
  });

  it('deleting an asset deletes its variants; the orphan sweep keeps live variants and removes a dead asset’s', async () => {
    const kept = await upload('kept.png', 'image/png', await pngWithAlpha());
    const doomed = await upload('doomed.png', 'image/png', await pngWithAlpha());
    await settled(doomed.id);
    await settled(kept.id);
    const variantsOf = async (id: string) => (await storedKeys()).filter((k) => k.includes(`${id}-w`));
    expect(await variantsOf(doomed.id)).toHaveLength(2);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/asset/${doomed.id}`, key: a.key })).statusCode).toBe(204);
    expect(await variantsOf(doomed.id)).toEqual([]);
    expect((await fetchFile(doomed.variants[0]!.src)).statusCode).toBe(404);

    // A variant left behind by a crash between a delete's row (which records its intent) and its files.
    const { Readable } = await import('node:stream');
    await storageIntents.record(t.db, `${a.id}/${doomed.id}`);
    await t.storage.put(`${a.id}/${doomed.id}-w320`, Readable.from([Buffer.from('left')]), 'image/webp');
    // A variant this database never recorded (another database's, say) is not the sweep's to remove.
    const stranger = `${a.id}/${newId()}-w320`;
    await t.storage.put(stranger, Readable.from([Buffer.from('not ours')]), 'image/webp');
    await sweepOrphans(t.db, t.storage, new Date(Date.now() + 60_000));
    expect(await variantsOf(doomed.id)).toEqual([]);
    expect(await t.storage.stat(stranger)).toBeDefined();
    await t.storage.delete(stranger);
    expect(await variantsOf(kept.id)).toHaveLength(2);
    expect((await fetchFile(kept.variants[0]!.src)).statusCode).toBe(200);
  });
});

describe('image jobs are durable', () => {
  let t: TestApp;
  let a: TestOrg;

  // Background work off: what a process that died right after answering the upload leaves behind.
  beforeAll(async () => {
    t = await createTestApp({ imageJobs: 'on-demand' });
    a = await t.createOrg();
  });
  afterAll(async () => t?.close());

  const upload = async (data: Buffer): Promise<ImageAsset> => {
    const { body, headers } = multipart({ filename: 'photo.jpg', type: 'image/jpeg', data });
    const res = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: a.key, body, headers });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as ImageAsset;
  };
  const read = async (id: string) => (await t.request({ method: 'GET', url: `/api/v1/asset/${id}`, key: a.key })).json() as ImageAsset;

  it('a variant URL asked for before the variant exists makes it in that request', async () => {
    const asset = await upload(await jpegWithGps());
    await t.app.services.assets.images.idle();
    expect((await read(asset.id)).variants.map((v) => v.sizeBytes)).toEqual([null, null]);
    const res = await t.request({ method: 'GET', url: pathOf(asset.variants[1]!.src) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect((await sharp(res.rawPayload).metadata()).width).toBe(640);
    const after = await read(asset.id);
    expect(after.variants.every((v) => typeof v.sizeBytes === 'number')).toBe(true);
    expect(after.placeholder).not.toBeNull();
  });

  it('a new process resumes the images left pending', async () => {
    const first = await upload(await jpegWithGps());
    const second = await upload(await jpegWithGps());
    expect((await read(first.id)).placeholder).toBeNull();
    // The next start, on the same database and storage: the server entry resumes pending images after listening.
    const next = await buildApp({ config: t.config, db: t.db, storage: t.storage, logger: false });
    try {
      await next.ready();
      expect(await next.services.assets.images.resume()).toBe(2);
      await next.services.assets.images.idle();
      for (const id of [first.id, second.id]) {
        const done = await read(id);
        expect(done.placeholder).not.toBeNull();
        expect(done.variants.map((v) => v.sizeBytes)).toEqual([expect.any(Number), expect.any(Number)]);
      }
    } finally {
      await next.close();
    }
  });
});
