import path from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageProcessor } from '../../src/modules/assets/images/processor.js';
import { DiskBlobStore } from '../../src/storage/disk.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { ObservedStore, multipart } from './assets-fixtures.js';

/** Disk storage whose variant writes wait at a gate: the image job stays under way until the test opens it. */
class GatedStore extends ObservedStore {
  private opened = true;
  private waiting: Array<() => void> = [];
  private arrived: Array<() => void> = [];
  hold(): void {
    this.opened = false;
  }
  release(): void {
    this.opened = true;
    for (const w of this.waiting.splice(0)) w();
  }
  /** Resolves when a variant write is held at the closed gate (the job is running). */
  held(): Promise<void> {
    return new Promise((resolve) => this.arrived.push(resolve));
  }
  override async put(key: string, body: Readable, contentType: string) {
    if (/-w\d+$/.test(key) && !this.opened) {
      for (const a of this.arrived.splice(0)) a();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    return super.put(key, body, contentType);
  }
}

interface Asset {
  id: string;
  variants: Array<{ width: number; src: string }>;
}

/**
 * Issue 25, item 2: right after an upload, requests for its variants (a page or a CDN once an editor
 * publishes) answered 500 while the image job ran: an urgent request called p-queue's setPriority for a
 * job that had already left the queue. Every variant, requested many times while its job is queued and
 * while it runs, answers 200 with the WebP; a request that would wait past its deadline gets 503 and
 * Retry-After, never a 500.
 */
describe(`variant requests while the image job runs (${TEST_DATABASE})`, () => {
  let t: TestApp;
  let a: TestOrg;
  let store: GatedStore;

  beforeAll(async () => {
    t = await createTestApp({
      storage: (dir) => {
        store = new GatedStore(new DiskBlobStore(path.join(dir, 'files')));
        return store;
      },
    });
    a = await t.createOrg();
  });
  afterAll(async () => t?.close());

  const photo = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: { r: 200, g: 90, b: 40 } } })
      .jpeg()
      .toBuffer();
  const upload = async (data: Buffer): Promise<Asset> => {
    const { body, headers } = multipart({ filename: 'site.jpg', type: 'image/jpeg', data });
    const res = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: a.key, body, headers });
    expect(res.statusCode).toBe(201);
    return res.json() as Asset;
  };
  const fetchAll = (asset: Asset, times: number) =>
    Promise.all(asset.variants.flatMap((v) => Array.from({ length: times }, () => t.request({ method: 'GET', url: new URL(v.src).pathname }))));

  it('every variant, requested while its job is queued and while it runs, answers 200', async () => {
    store.hold();
    const asset = await upload(await photo(2000, 1500));
    expect(asset.variants.map((v) => v.width)).toEqual([320, 640, 1280, 1920]);
    // Asked at once (the job queued or just started), then again once the job is surely under way.
    const early = fetchAll(asset, 5);
    await store.held();
    const during = fetchAll(asset, 10);
    // Nothing answered yet: every request waits for the job instead of failing.
    const settledEarly = await Promise.race([early.then(() => 'answered'), new Promise((r) => setImmediate(() => r('waiting')))]);
    expect(settledEarly).toBe('waiting');
    store.release();
    const answers = [...(await early), ...(await during)];
    expect(answers).toHaveLength(60);
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    for (const r of answers) expect(r.headers['content-type']).toBe('image/webp');
  });

  it('a request that would wait past its deadline is a 503 (the error handler adds Retry-After), not a 500; the job goes on', async () => {
    store.hold();
    const asset = await upload(await photo(700, 500));
    await store.held();
    const images = t.app.services.assets.images;
    await expect(images.ensure(a.id, asset.id, 50)).rejects.toMatchObject({ statusCode: 503 });
    store.release();
    await images.ensure(a.id, asset.id);
    for (const r of await fetchAll(asset, 2)) expect(r.statusCode).toBe(200);
  });

  it('a job that another instance finished first keeps the variants that instance listed (it used to delete them)', async () => {
    store.hold();
    const asset = await upload(await photo(1400, 900));
    await store.held(); // this instance's job is under way, held before its first variant write
    // A second instance (same database, same files) is asked for a variant and makes them all first.
    const other = new ImageProcessor(t.db, new DiskBlobStore(path.join(t.dataDir, 'files')), t.app.log, { background: false });
    await other.ensure(a.id, asset.id);
    const listed = (await t.request({ method: 'GET', url: `/api/v1/asset/${asset.id}`, key: a.key })).json() as Asset;
    expect(listed.variants.map((v) => v.width)).toEqual([320, 640, 1280]);
    // This instance's job now stores the same files again and finds the image no longer pending.
    const written = store.puts.length;
    store.release();
    await t.app.services.assets.images.ensure(a.id, asset.id);
    await Promise.all(store.puts.slice(written));
    for (const v of listed.variants) {
      const res = await t.request({ method: 'GET', url: new URL(v.src).pathname });
      expect(res.statusCode, v.src).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
    }
  });

  it('variants of many uploads, each requested while the queue works through them: 0 non-200', async () => {
    const assets: Asset[] = [];
    for (let i = 0; i < 6; i++) assets.push(await upload(await photo(900 + i * 10, 700)));
    const answers = (await Promise.all(assets.map((asset) => fetchAll(asset, 4)))).flat();
    expect(answers.length).toBe(6 * 2 * 4);
    expect(answers.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
  });
});
