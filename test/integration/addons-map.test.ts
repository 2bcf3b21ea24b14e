import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TILE_STYLES, distanceLabel, haversineMeters } from '../../src/modules/addons/map/geo.js';
import { MISSING_ID, call, expectContiguous, expectError } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { createEstate } from '../helpers/factories.js';

const CENTER = { lat: 52.2297, lng: 21.0122 };

describe('map add-on', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;
  const freshMap = async () => `/api/v1/estates/${(await createEstate(t, a.key)).id}/map`;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Map A');
    b = await t.createOrg('Map B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
  });
  afterAll(async () => t?.close());

  it('PUT with only {enabled} creates the configuration with defaults; later PUTs change only the fields sent', async () => {
    const url = await freshMap();
    const empty = await call(t, 'GET', url, a.key, undefined, 200);
    expect(empty).toMatchObject({ enabled: false, centerLat: null, tileStyle: null, tiles: null, pois: [] });
    const on = await call(t, 'PUT', url, a.key, { enabled: true }, 200);
    expect(on).toMatchObject({
      enabled: true,
      centerLat: null,
      centerLng: null,
      defaultZoom: 14,
      tileStyle: 'VOYAGER',
      logoAssetId: null,
      logoAsset: null,
      pois: [],
    });
    expect(on.tiles).toEqual({
      urlTemplate: 'https://{s}.basemaps.cartocdn.com/rastertiles/voyager/{z}/{x}/{y}{r}.png',
      attribution: expect.stringContaining('CARTO'),
      maxZoom: 20,
    });
    const set = await call(t, 'PUT', url, a.key, { centerLat: CENTER.lat, centerLng: CENTER.lng, defaultZoom: 16, tileStyle: 'SATELLITE' }, 200);
    expect(set).toMatchObject({ enabled: true, centerLat: CENTER.lat, centerLng: CENTER.lng, defaultZoom: 16, tileStyle: 'SATELLITE' });
    expect(set.tiles.urlTemplate).toContain('World_Imagery');
    expect(set.tiles.attribution).toContain('Esri');
    const partial = await call(t, 'PUT', url, a.key, { defaultViewLat: 52.23, defaultViewLng: 21.0 }, 200);
    expect(partial).toMatchObject({
      centerLat: CENTER.lat,
      defaultZoom: 16,
      tileStyle: 'SATELLITE',
      defaultViewLat: 52.23,
      defaultViewLng: 21.0,
      enabled: true,
    });
    const off = await call(t, 'PUT', url, a.key, { enabled: false }, 200);
    expect(off).toMatchObject({ enabled: false, centerLat: CENTER.lat, tileStyle: 'SATELLITE' });
  });

  it('resolves tiles for every style of the complete list', async () => {
    const url = await freshMap();
    for (const style of TILE_STYLES) {
      const doc = await call(t, 'PUT', url, a.key, { tileStyle: style }, 200);
      expect(doc.tileStyle).toBe(style);
      expect(doc.tiles.urlTemplate).toMatch(/^https:\/\/.+\{z\}.+/);
      expect(doc.tiles.attribution).toMatch(/OpenStreetMap|Esri/);
      expect(doc.tiles.maxZoom).toBeGreaterThanOrEqual(16);
    }
  });

  it('validates ranges, zoom, enumerations, pairs and unknown fields with 422 naming the field', async () => {
    const url = await freshMap();
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ centerLat: 90.5, centerLng: 0 }, /centerLat/],
      [{ centerLat: 0, centerLng: -180.01 }, /centerLng/],
      [{ defaultViewLat: -91, defaultViewLng: 0 }, /defaultViewLat/],
      [{ defaultZoom: 23 }, /defaultZoom/],
      [{ defaultZoom: 12.5 }, /defaultZoom/],
      [{ defaultZoom: -1 }, /defaultZoom/],
      [{ tileStyle: 'WATERCOLOR' }, /tileStyle/],
      [{ centerLat: '52' }, /centerLat/],
      [{ centerLat: 52 }, /centerLat, centerLng/],
      [{ zoom: 3 }, /zoom/],
      [{ enabled: 'true' }, /enabled/],
    ];
    for (const [body, field] of bad) expectError(await t.request({ method: 'PUT', url, key: a.key, body }), 422, field);
    expect((await call(t, 'GET', url, a.key)).centerLat).toBeNull();
    await call(t, 'PUT', url, a.key, { centerLat: -90, centerLng: 180, defaultZoom: 0 }, 200);
    await call(t, 'PUT', url, a.key, { defaultZoom: 22 }, 200);
    expectError(await t.request({ method: 'PUT', url, key: a.key, body: { centerLng: null } }), 422, /centerLat, centerLng/);
    const cleared = await call(t, 'PUT', url, a.key, { centerLat: null, centerLng: null }, 200);
    expect(cleared.centerLat).toBeNull();
  });

  it('logo must be an image asset of the organization (404 foreign, 400 not an image)', async () => {
    const url = await freshMap();
    const logo = await insertAssetRow(t.db, a.id, { mimeType: 'image/svg+xml' });
    const doc = await call(t, 'PUT', url, a.key, { logoAssetId: logo.id }, 200);
    expect(doc.logoAssetId).toBe(logo.id);
    expect(doc.logoAsset).toMatchObject({ id: logo.id, mimeType: 'image/svg+xml', src: `http://localhost:3000/files/${logo.storageKey}` });
    expectError(await t.request({ method: 'PUT', url, key: a.key, body: { logoAssetId: (await insertAssetRow(t.db, b.id)).id } }), 404, /Asset/);
    expectError(await t.request({ method: 'PUT', url, key: a.key, body: { logoAssetId: MISSING_ID } }), 404, /Asset/);
    expectError(
      await t.request({ method: 'PUT', url, key: a.key, body: { logoAssetId: (await insertAssetRow(t.db, a.id, { mimeType: 'application/pdf' })).id } }),
      400,
      /image/,
    );
    expect((await call(t, 'PUT', url, a.key, { logoAssetId: null }, 200)).logoAsset).toBeNull();
  });

  it('computes haversine distances and labels; 0.009 degrees north is 1,000 m within 1%', async () => {
    expect(haversineMeters(CENTER.lat, CENTER.lng, CENTER.lat + 0.009, CENTER.lng)).toBeGreaterThan(990);
    expect(distanceLabel(347)).toBe('350 m');
    expect(distanceLabel(4)).toBe('0 m');
    expect(distanceLabel(1234)).toBe('1.2 km');
    expect(distanceLabel(12_960)).toBe('13.0 km');

    const url = await freshMap();
    const before = await call(t, 'POST', `${url}/pois`, a.key, { category: 'PARKS', label: 'Park', lat: CENTER.lat + 0.009, lng: CENTER.lng }, 201);
    expect(before).toMatchObject({ distanceMeters: null, distanceLabel: null, order: 0, customDistanceLabel: null });
    await call(t, 'PUT', url, a.key, { centerLat: CENTER.lat, centerLng: CENTER.lng }, 200);
    const doc = await call(t, 'GET', url, a.key);
    const park = doc.pois[0];
    expect(Math.abs(park.distanceMeters - 1000)).toBeLessThanOrEqual(10);
    expect(park.distanceLabel).toBe('1.0 km');

    const near = await call(t, 'POST', `${url}/pois`, a.key, { category: 'TRANSIT', label: 'Tram', lat: CENTER.lat + 0.00315, lng: CENTER.lng }, 201);
    expect(near.distanceLabel).toBe('350 m');
    const far = await call(t, 'POST', `${url}/pois`, a.key, { category: 'SHOPPING', label: 'Mall', lat: CENTER.lat, lng: CENTER.lng + 0.0176 }, 201);
    expect(far.distanceLabel).toBe('1.2 km');
    const custom = await call(
      t,
      'POST',
      `${url}/pois`,
      a.key,
      { category: 'EDUCATION', label: 'School', lat: CENTER.lat, lng: CENTER.lng, customDistanceLabel: '5 min walk', order: 0 },
      201,
    );
    expect(custom).toMatchObject({ distanceMeters: 0, distanceLabel: '5 min walk', order: 0 });
    const uncustom = await call(t, 'PATCH', `${url}/pois/${custom.id}`, a.key, { customDistanceLabel: null }, 200);
    expect(uncustom).toMatchObject({ distanceLabel: '0 m', customDistanceLabel: null, label: 'School', category: 'EDUCATION' });
  });

  it('points of interest: complete categories, validation, PATCH, order, DELETE, tenancy', async () => {
    const url = await freshMap();
    const categories = ['TRANSIT', 'SHOPPING', 'EDUCATION', 'HEALTHCARE', 'FOOD', 'PARKS', 'ENTERTAINMENT', 'SERVICES', 'LANDMARK', 'OTHER'];
    const ids: string[] = [];
    for (const category of categories) ids.push((await call(t, 'POST', `${url}/pois`, a.key, { category, label: category, lat: 1, lng: 2 }, 201)).id);
    expectError(await t.request({ method: 'POST', url: `${url}/pois`, key: a.key, body: { category: 'BEACH', label: 'x', lat: 1, lng: 2 } }), 422, /category/);
    expectError(await t.request({ method: 'POST', url: `${url}/pois`, key: a.key, body: { category: 'FOOD', label: 'x', lat: 91, lng: 2 } }), 422, /lat/);
    expectError(await t.request({ method: 'POST', url: `${url}/pois`, key: a.key, body: { category: 'FOOD', label: 'x', lat: 1 } }), 422, /lng is required/);
    expectError(await t.request({ method: 'POST', url: `${url}/pois`, key: a.key, body: { category: 'FOOD', lat: 1, lng: 1 } }), 422, /label is required/);
    expectError(await t.request({ method: 'POST', url: `${url}/pois`, key: b.key, body: { category: 'FOOD', label: 'x', lat: 1, lng: 2 } }), 404, /Estate/);
    expectError(await t.request({ method: 'POST', url: `${url}/pois`, key: readOnly, body: { category: 'FOOD', label: 'x', lat: 1, lng: 2 } }), 403);
    expectError(await t.request({ method: 'PATCH', url: `${url}/pois/${ids[0]}`, key: b.key, body: { label: 'x' } }), 404);
    expectError(await t.request({ method: 'PATCH', url: `${url}/pois/${MISSING_ID}`, key: a.key, body: { label: 'x' } }), 404, /Point of interest/);

    const patched = await call(t, 'PATCH', `${url}/pois/${ids[0]}`, a.key, { lat: 3, order: 9 }, 200);
    expect(patched).toMatchObject({ lat: 3, lng: 2, label: 'TRANSIT', order: 9 });
    const current = (await call(t, 'GET', url, a.key)).pois.map((p: { id: string }) => p.id);
    expect(current[9]).toBe(ids[0]);
    expectError(await t.request({ method: 'PUT', url: `${url}/pois/order`, key: a.key, body: { orderedIds: current.slice(0, 9) } }), 404);
    expectError(await t.request({ method: 'PUT', url: `${url}/pois/order`, key: a.key, body: { orderedIds: [...current.slice(0, 9), current[0]] } }), 404);
    expect((await call(t, 'GET', url, a.key)).pois.map((p: { id: string }) => p.id)).toEqual(current);
    const ordered = await call(t, 'PUT', `${url}/pois/order`, a.key, { orderedIds: ids }, 200);
    expect(ordered.map((p: { id: string }) => p.id)).toEqual(ids);
    expectContiguous(ordered);
    await call(t, 'DELETE', `${url}/pois/${ids[4]}`, a.key, undefined, 204);
    expectContiguous((await call(t, 'GET', url, a.key)).pois);
  });

  it('DELETE removes the configuration and every point of interest', async () => {
    const url = await freshMap();
    await call(t, 'PUT', url, a.key, { enabled: true, centerLat: 1, centerLng: 1 }, 200);
    await call(t, 'POST', `${url}/pois`, a.key, { category: 'FOOD', label: 'Cafe', lat: 1, lng: 1.001 }, 201);
    expectError(await t.request({ method: 'DELETE', url, key: b.key }), 404, /Estate/);
    expectError(await t.request({ method: 'DELETE', url, key: readOnly }), 403);
    await call(t, 'DELETE', url, a.key, undefined, 204);
    expect(await call(t, 'GET', url, a.key, undefined, 200)).toMatchObject({ enabled: false, centerLat: null, tileStyle: null, pois: [] });
    expect(await call(t, 'GET', url, undefined, undefined, 200)).toMatchObject({ enabled: false, pois: [] });
  });
});
