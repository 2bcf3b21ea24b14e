import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createApartment, createProject } from '../helpers/factories.js';
import { multipart, pdf } from './assets-fixtures.js';
import { jpegWithGps, pngWithAlpha } from './image-fixtures.js';

interface Asset {
  id: string;
  mimeType: string;
  width: number | null;
  height: number | null;
  placeholder: string | null;
  variants: Array<{ width: number; height: number; mimeType: string; src: string; sizeBytes: number | null }>;
}

const EMPTY_USAGE = { apartments: [], gallery: [], investment: [], downloads: [], mapLogo: [], navigatorFrames: [] };

// Background jobs off: the test decides when an image's variants are made.
describe('asset usage, unused assets and images in public add-on reads', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;
  let estate: string;
  let building: string;
  let photo: Asset;
  let plan: Asset;
  let doc: Asset;
  let spare: Asset;
  const e = () => `/api/v1/estates/${estate}`;

  const upload = async (filename: string, type: string, data: Buffer, key = a.key): Promise<Asset> => {
    const { body, headers } = multipart({ filename, type, data });
    const res = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key, body, headers });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Asset;
  };

  beforeAll(async () => {
    t = await createTestApp({ imageJobs: 'on-demand' });
    a = await t.createOrg();
    b = await t.createOrg();
    readOnly = (await t.issueKey(a.id, ['read'])).key;
    const project = await createProject(t, a.key);
    estate = project.estate.id;
    building = project.building.id;
    photo = await upload('photo.jpg', 'image/jpeg', await jpegWithGps());
    plan = await upload('plan.png', 'image/png', await pngWithAlpha());
    doc = await upload('brochure.pdf', 'application/pdf', pdf());
    spare = await upload('spare.png', 'image/png', await pngWithAlpha());
  });
  afterAll(async () => t?.close());

  const usage = async (id: string, key = a.key) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/asset/${id}`, key });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().usedBy;
  };
  const listIds = async (query: string, key = a.key) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/asset?${query}`, key });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as Asset[]).map((x) => x.id);
  };

  it('usedBy names every apartment, gallery item, investment file, downloads item and map logo using the asset', async () => {
    expect(await usage(photo.id)).toEqual(EMPTY_USAGE);
    const apartments = [
      await createApartment(t, a.key, building, { assetsIds: [photo.id, plan.id] }),
      await createApartment(t, a.key, building, { assetsIds: [photo.id.toUpperCase()] }),
    ];
    const item = await call(t, 'POST', `${e()}/gallery/items`, a.key, { assetId: photo.id, caption: 'Front' }, 201);
    const section = await call(t, 'POST', `${e()}/investment/sections`, a.key, { title: 'Renders' }, 201);
    const file = await call(t, 'POST', `${e()}/investment/sections/${section.id}/files`, a.key, { assetId: photo.id, label: 'Render' }, 201);
    const group = await call(t, 'POST', `${e()}/downloads/groups`, a.key, { title: 'Files' }, 201);
    const download = await call(t, 'POST', `${e()}/downloads/groups/${group.id}/items`, a.key, { assetId: doc.id }, 201);
    await call(t, 'PUT', `${e()}/map`, a.key, { centerLat: 52.2, centerLng: 21, logoAssetId: plan.id }, 200);

    expect(await usage(photo.id)).toEqual({
      apartments: apartments.map((x) => x.id).sort(),
      gallery: [item.id],
      investment: [file.id],
      downloads: [],
      mapLogo: [],
      navigatorFrames: [],
    });
    expect(await usage(plan.id, readOnly)).toEqual({ ...EMPTY_USAGE, apartments: [apartments[0]!.id], mapLogo: [estate] });
    expect(await usage(doc.id)).toEqual({ ...EMPTY_USAGE, downloads: [download.id] });
    expect(await usage(spare.id)).toEqual(EMPTY_USAGE);
  });

  it('?unused=true lists only what nothing uses, ?unused=false only what something uses; other filters combine', async () => {
    expect(await listIds('unused=true')).toEqual([spare.id]);
    expect((await listIds('unused=false')).sort()).toEqual([photo.id, plan.id, doc.id].sort());
    expect(await listIds('unused=false&mimeType=application/')).toEqual([doc.id]);
    expect(await listIds('unused=true', readOnly)).toEqual([spare.id]);
    // Another organization's assets are neither listed nor counted as using anything.
    const theirs = await upload('theirs.png', 'image/png', await pngWithAlpha(), b.key);
    expect(await listIds('unused=true', b.key)).toEqual([theirs.id]);
    expect(await listIds('unused=true')).toEqual([spare.id]);
  });

  it('errors: another organization’s asset 404, no key 401, unused not a boolean 400', async () => {
    expectError(await t.request({ method: 'GET', url: `/api/v1/asset/${photo.id}`, key: b.key }), 404, photo.id);
    expectError(await t.request({ method: 'GET', url: `/api/v1/asset/${photo.id}` }), 401);
    expectError(await t.request({ method: 'GET', url: '/api/v1/asset?unused=true' }), 401);
    expectError(await t.request({ method: 'GET', url: '/api/v1/asset?unused=maybe', key: a.key }), 400, 'unused');
  });

  it('public reads embed width, height, variants and placeholder, and show the variants once they are made', async () => {
    for (const addon of ['gallery', 'investment', 'downloads', 'map']) await call(t, 'PUT', `${e()}/${addon}`, a.key, { enabled: true }, 200);
    const gallery = async () => {
      const res = await t.request({ method: 'GET', url: `${e()}/gallery` });
      expect(res.statusCode).toBe(200);
      return { asset: res.json().items[0].asset as Asset, etag: res.headers.etag as string };
    };
    const before = await gallery();
    expect(before.asset).toMatchObject({ id: photo.id, width: 1200, height: 1600, placeholder: null });
    expect(before.asset.variants).toEqual(photo.variants);
    expect(before.asset.variants.every((v) => v.sizeBytes === null)).toBe(true);

    // The variants are made (as the background job would): the cached public document is replaced.
    await t.app.services.assets.images.ensure(a.id, photo.id);
    await t.app.services.assets.images.ensure(a.id, plan.id);
    const after = await gallery();
    expect(after.etag).not.toBe(before.etag);
    expect(after.asset.placeholder).toEqual(expect.any(String));
    expect(after.asset.variants.map((v) => [v.width, v.height, v.mimeType, v.src])).toEqual(photo.variants.map((v) => [v.width, v.height, v.mimeType, v.src]));
    expect(after.asset.variants.every((v) => typeof v.sizeBytes === 'number')).toBe(true);
    const stale = await t.request({ method: 'GET', url: `${e()}/gallery`, headers: { 'if-none-match': before.etag } });
    expect(stale.statusCode).toBe(200);

    const investment = await call(t, 'GET', `${e()}/investment`, undefined);
    expect(investment.sections[0].files[0].asset).toMatchObject({ id: photo.id, width: 1200, placeholder: expect.any(String) });
    const map = await call(t, 'GET', `${e()}/map`, undefined);
    expect(map.logoAsset).toMatchObject({ id: plan.id, width: 700, height: 500, placeholder: expect.any(String) });
    expect(map.logoAsset.variants.map((v: { width: number }) => v.width)).toEqual([320, 640]);
    const downloads = await call(t, 'GET', `${e()}/downloads`, undefined);
    // Not an image: the fields are there, empty.
    expect(downloads.groups[0].items[0].asset).toMatchObject({ id: doc.id, width: null, height: null, variants: [], placeholder: null });
    // The embedded variant URLs serve the WebP.
    const res = await t.request({ method: 'GET', url: new URL(after.asset.variants[0]!.src).pathname });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
  });
});
