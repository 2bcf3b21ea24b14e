import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, call, expectError } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { createBuilding, createEstate } from '../helpers/factories.js';

/** Navigators you can edit (issue 26): the navigator itself, frames, nesting, reads by every key. */
describe('navigators', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;
  let publishable: string;
  let estateId: string;
  let buildingId: string;
  let nav: string;
  const image = async (org = a.id, opts: { mimeType?: string; width?: number; height?: number } = {}) =>
    (await insertAssetRow(t.db, org, { mimeType: 'image/jpeg', width: 1920, height: 1080, ...opts })).id;
  const count = async (table: string) => Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n);

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Navigator A');
    b = await t.createOrg('Navigator B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
    publishable = (await t.issueKey(a.id, ['publishable'])).key;
    const setup = await call(t, 'POST', '/api/v1/estate/setup', a.key, { name: 'Riverside', buildingName: 'Tower A' }, 201);
    estateId = setup.estate.id;
    buildingId = setup.building.id;
    nav = setup.navigator.id;
  });
  afterAll(async () => t?.close());

  it('quick setup makes the estate’s first navigator: read, listed, with default options', async () => {
    const read = await t.request({ method: 'GET', url: `/api/v1/navigator/${nav}`, key: a.key });
    expect(read.statusCode).toBe(200);
    const doc = read.json();
    expect(doc).toMatchObject({ id: nav, estateId, parentId: null, referenceType: 'estate', referenceId: estateId, type: 'image', images: [], nested: [] });
    expect(doc.options).toMatchObject({ overlayWidth: 1920, overlayHeight: 1080, customTheme: {} });
    expect(read.headers.etag).toMatch(/^"/);
    const again = await t.request({ method: 'GET', url: `/api/v1/navigator/${nav}`, key: a.key, headers: { 'if-none-match': read.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    const list = await call(t, 'GET', `/api/v1/navigator?estateId=${estateId}`, readOnly, undefined, 200);
    expect(list.map((n: { id: string }) => n.id)).toEqual([nav]);
  });

  it('reads by every key: read and publishable keys read, another organization gets 404, no key 401', async () => {
    await call(t, 'GET', `/api/v1/navigator/${nav}`, readOnly, undefined, 200);
    const pub = await t.request({ method: 'GET', url: `/api/v1/navigator/${nav}`, key: publishable });
    expect(pub.statusCode).toBe(200);
    expect(pub.headers['cache-control']).toMatch(/public/);
    await call(t, 'GET', `/api/v1/navigator?estateId=${estateId}`, publishable, undefined, 200);
    expectError(await t.request({ method: 'GET', url: `/api/v1/navigator/${nav}`, key: b.key }), 404, `Navigator with id ${nav} not found`);
    expectError(await t.request({ method: 'GET', url: `/api/v1/navigator?estateId=${estateId}`, key: b.key }), 404, /Estate/);
    expectError(await t.request({ method: 'GET', url: `/api/v1/navigator/${nav}` }), 401);
    expectError(await t.request({ method: 'GET', url: '/api/v1/navigator/not-a-uuid', key: a.key }), 404);
    expectError(await t.request({ method: 'GET', url: '/api/v1/navigator', key: a.key }), 400, /estateId/);
    // Writes need the write scope.
    expectError(await t.request({ method: 'PATCH', url: `/api/v1/navigator/${nav}`, key: readOnly, body: { isPreview: true } }), 403);
    expectError(await t.request({ method: 'PATCH', url: `/api/v1/navigator/${nav}`, key: publishable, body: { isPreview: true } }), 403);
  });

  it('PATCH changes SEO fields and options key by key, with a strong ETag and If-Match', async () => {
    const before = await t.request({ method: 'GET', url: `/api/v1/navigator/${nav}`, key: a.key });
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/v1/navigator/${nav}`,
      key: a.key,
      headers: { 'if-match': before.headers.etag as string },
      body: { seoTitle: 'Riverside in 3D', isPreview: true, options: { startingAngle: 90, hideFilters: ['price'], canFreelyRotate: true } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const doc = patched.json();
    expect(doc).toMatchObject({ seoTitle: 'Riverside in 3D', isPreview: true });
    expect(doc.options).toMatchObject({ startingAngle: 90, hideFilters: ['price'], canFreelyRotate: true, overlayWidth: 1920, favouritesEnabled: true });
    expect(patched.headers.etag).not.toBe(before.headers.etag);
    // The old ETag no longer matches: 412, nothing changed.
    const stale = await t.request({
      method: 'PATCH',
      url: `/api/v1/navigator/${nav}`,
      key: a.key,
      headers: { 'if-match': before.headers.etag as string },
      body: { seoTitle: 'Lost update' },
    });
    expectError(stale, 412);
    const read = await t.request({ method: 'GET', url: `/api/v1/navigator/${nav}`, key: a.key });
    expect(read.json().seoTitle).toBe('Riverside in 3D');
    expect(read.headers.etag).toBe(patched.headers.etag);
    // GET-modify-PATCH: the read-only fields sent back are ignored.
    await call(t, 'PATCH', `/api/v1/navigator/${nav}`, a.key, { ...(read.json() as object), seoDescription: 'By the river' }, 200);
  });

  it('PATCH refuses unknown options, wrong types and out-of-range numbers with 422 naming the field, storing nothing', async () => {
    const url = `/api/v1/navigator/${nav}`;
    const before = (await call(t, 'GET', url, a.key, undefined, 200)).options;
    expectError(await t.request({ method: 'PATCH', url, key: a.key, body: { options: { zoom: 3 } } }), 422, /options\.zoom is not allowed/);
    expectError(await t.request({ method: 'PATCH', url, key: a.key, body: { options: { isLoopable: 'yes' } } }), 422, /options\.isLoopable/);
    expectError(await t.request({ method: 'PATCH', url, key: a.key, body: { options: { hideColumns: [1] } } }), 422, /options\.hideColumns\[0\]/);
    expectError(await t.request({ method: 'PATCH', url, key: a.key, body: { options: { overlayWidth: 0 } } }), 422, /options\.overlayWidth/);
    expectError(await t.request({ method: 'PATCH', url, key: a.key, body: { options: { startingAngle: 360 } } }), 422, /options\.startingAngle/);
    expectError(await t.request({ method: 'PATCH', url, key: a.key, body: { options: { customTheme: { '--evil': 'red' } } } }), 422, /--evil/);
    expectError(await t.request({ method: 'PATCH', url, key: a.key, body: { options: { customTheme: { fontFamily: 'Comic Sans' } } } }), 422, /fontFamily/);
    expectError(await t.request({ method: 'PATCH', url, key: a.key, body: { seoTitle: 'x'.repeat(201) } }), 422, /seoTitle/);
    expectError(await t.request({ method: 'PATCH', url: `/api/v1/navigator/${MISSING_ID}`, key: a.key, body: { isPreview: false } }), 404);
    expectError(await t.request({ method: 'PATCH', url, key: b.key, body: { isPreview: false } }), 404);
    expectError(await t.request({ method: 'PATCH', url, body: { isPreview: false } }), 401);
    expect((await call(t, 'GET', url, a.key, undefined, 200)).options).toEqual(before);
  });

  it('frames: an image asset at an angle, answered with the asset embedded; ordered by angle; PATCH and DELETE', async () => {
    const url = `/api/v1/navigator/${nav}/images`;
    const first = await image();
    const f180 = await call(t, 'POST', url, a.key, { assetId: first, angle: 180, isMarketingStop: true, highlightLabel: 'River view' }, 201);
    expect(f180).toMatchObject({ angle: 180, name: '180°', assetId: first, isMarketingStop: true, highlightLabel: 'River view', shapes: [], pois: [] });
    expect(f180.imageUrl).toBe(f180.asset.src);
    expect(f180.asset).toMatchObject({ id: first, width: 1920, height: 1080, mimeType: 'image/jpeg', variants: [], placeholder: null });
    const f0 = await call(t, 'POST', url, a.key, { assetId: await image(), angle: 0, name: 'Front' }, 201);
    const f45 = await call(t, 'POST', url, a.key, { assetId: await image(), angle: 22.5 }, 201);
    const doc = await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200);
    expect(doc.images.map((i: { angle: number }) => i.angle)).toEqual([0, 22.5, 180]);

    const moved = await call(t, 'PATCH', `${url}/${f45.id}`, a.key, { angle: 270, name: 'Back', highlightLabel: null }, 200);
    expect(moved).toMatchObject({ id: f45.id, angle: 270, name: 'Back', highlightLabel: null });
    expectError(await t.request({ method: 'PATCH', url: `${url}/${f45.id}`, key: a.key, body: { angle: 0 } }), 409, /angle 0/);
    await call(t, 'DELETE', `${url}/${f0.id}`, a.key, undefined, 204);
    expectError(await t.request({ method: 'DELETE', url: `${url}/${f0.id}`, key: a.key }), 404, /Navigator image/);
    const after = await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200);
    expect(after.images.map((i: { id: string }) => i.id)).toEqual([f180.id, f45.id]);
  });

  it('frames refuse a duplicate angle (409), angle 360, a PDF, an image of unknown size and another organization’s asset, storing nothing', async () => {
    const url = `/api/v1/navigator/${nav}/images`;
    const before = await count('navigator_frames');
    await call(t, 'POST', url, a.key, { assetId: await image(), angle: 90 }, 201);
    expectError(await t.request({ method: 'POST', url, key: a.key, body: { assetId: await image(), angle: 90 } }), 409, /angle 90/);
    expectError(await t.request({ method: 'POST', url, key: a.key, body: { assetId: await image(), angle: 360 } }), 422, /angle/);
    expectError(await t.request({ method: 'POST', url, key: a.key, body: { assetId: await image(), angle: -1 } }), 422, /angle/);
    const pdf = await image(a.id, { mimeType: 'application/pdf', width: undefined, height: undefined });
    expectError(await t.request({ method: 'POST', url, key: a.key, body: { assetId: pdf, angle: 10 } }), 422, /assetId must be an image/);
    const svg = (await insertAssetRow(t.db, a.id, { mimeType: 'image/svg+xml' })).id;
    expectError(await t.request({ method: 'POST', url, key: a.key, body: { assetId: svg, angle: 10 } }), 422, /known width and height/);
    const theirs = await image(b.id);
    expectError(await t.request({ method: 'POST', url, key: a.key, body: { assetId: theirs, angle: 10 } }), 404, /Asset/);
    expectError(await t.request({ method: 'POST', url, key: a.key, body: { angle: 10 } }), 422, /assetId is required/);
    expectError(await t.request({ method: 'POST', url, key: a.key, body: { assetId: await image(), angle: 10, extra: true } }), 422, /extra/);
    expectError(await t.request({ method: 'POST', url, key: b.key, body: { assetId: theirs, angle: 10 } }), 404, /Navigator/);
    expectError(await t.request({ method: 'POST', url, key: readOnly, body: { assetId: await image(), angle: 10 } }), 403);
    expect(await count('navigator_frames')).toBe(before + 1);
  });

  it('nested navigators: one per building of the estate under a parent, listed in its nested; deleting one removes its frames', async () => {
    const nested = await call(
      t,
      'POST',
      '/api/v1/navigator',
      a.key,
      { estateId, parentId: nav, referenceType: 'building', referenceId: buildingId, name: 'Tower A' },
      201,
    );
    expect(nested).toMatchObject({ estateId, parentId: nav, referenceType: 'building', referenceId: buildingId, seoTitle: 'Tower A', nested: [] });
    expect(nested.options.navigatorName).toBe('Tower A');
    await call(t, 'POST', `/api/v1/navigator/${nested.id}/images`, a.key, { assetId: await image(), angle: 0 }, 201);
    const parent = await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200);
    expect(parent.nested.map((n: { id: string }) => n.id)).toEqual([nested.id]);
    expect(parent.nested[0].images).toHaveLength(1);
    const list = await call(t, 'GET', `/api/v1/navigator?estateId=${estateId}`, a.key, undefined, 200);
    expect(list).toHaveLength(1);
    expect(list[0].nested[0].id).toBe(nested.id);

    const body = { estateId, parentId: nav, referenceType: 'building', referenceId: buildingId, name: 'Again' };
    expectError(await t.request({ method: 'POST', url: '/api/v1/navigator', key: a.key, body }), 409, /nested navigator for this building/);
    const otherEstate = await createEstate(t, a.key);
    const foreignBuilding = await createBuilding(t, a.key, otherEstate.id);
    expectError(
      await t.request({ method: 'POST', url: '/api/v1/navigator', key: a.key, body: { ...body, referenceId: foreignBuilding.id } }),
      422,
      /referenceId/,
    );
    expectError(
      await t.request({ method: 'POST', url: '/api/v1/navigator', key: a.key, body: { ...body, referenceId: undefined } }),
      422,
      /referenceId is required/,
    );
    expectError(await t.request({ method: 'POST', url: '/api/v1/navigator', key: a.key, body: { ...body, referenceType: 'estate' } }), 422, /referenceType/);
    expectError(await t.request({ method: 'POST', url: '/api/v1/navigator', key: a.key, body: { ...body, parentId: MISSING_ID } }), 404, /Navigator/);
    expectError(await t.request({ method: 'POST', url: '/api/v1/navigator', key: b.key, body }), 404, /Estate/);

    const frames = await count('navigator_frames');
    await call(t, 'DELETE', `/api/v1/navigator/${nested.id}`, a.key, undefined, 204);
    expect(await count('navigator_frames')).toBe(frames - 1);
    expect((await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200)).nested).toEqual([]);
    expectError(await t.request({ method: 'DELETE', url: `/api/v1/navigator/${nav}`, key: a.key }), 409, /first navigator/);
    expectError(await t.request({ method: 'DELETE', url: `/api/v1/navigator/${nav}`, key: b.key }), 404);
  });

  it('an estate made without quick setup gets its first navigator by POST without parentId (409 for a second)', async () => {
    const estate = await createEstate(t, a.key);
    expect(estate.navigatorId).toBeNull();
    const first = await call(t, 'POST', '/api/v1/navigator', a.key, { estateId: estate.id, name: 'Overview' }, 201);
    expect(first).toMatchObject({ estateId: estate.id, parentId: null, referenceType: 'estate', referenceId: estate.id });
    expect((await call(t, 'GET', `/api/v1/estate/${estate.id}`, a.key, undefined, 200)).navigatorId).toBe(first.id);
    expectError(await t.request({ method: 'POST', url: '/api/v1/navigator', key: a.key, body: { estateId: estate.id, name: 'Second' } }), 409);
    expectError(
      await t.request({ method: 'POST', url: '/api/v1/navigator', key: a.key, body: { estateId: estate.id, name: 'x', referenceId: buildingId } }),
      422,
      /only for a nested navigator/,
    );
  });

  it('the page reads a navigator as a publishable key would, from the same cache, and sees every change', async () => {
    const page = await t.app.services.navigators.forPage(a.id, estateId);
    expect(page.value.id).toBe(nav);
    expect(page.value.images.map((i) => i.angle)).toEqual([...page.value.images.map((i) => i.angle)].sort((x, y) => x - y));
    // Reused as it is while nothing changed (PGlite; PostgreSQL only with the LISTEN connection: test/postgres/navigator-documents.test.ts).
    const again = await t.app.services.navigators.forPage(a.id, estateId);
    if (t.app.services.navigators.documents.isTrusted) expect(again).toBe(page);
    else expect(again).toEqual(page);
    await call(t, 'PATCH', `/api/v1/navigator/${nav}`, a.key, { seoTitle: 'Changed for the page' }, 200);
    const changed = await t.app.services.navigators.forPage(a.id, estateId, nav);
    expect(changed.value.seoTitle).toBe('Changed for the page');
    expect(changed.etag).not.toBe(page.etag);
    await expect(t.app.services.navigators.forPage(b.id, estateId)).rejects.toThrow(/not found/);
    const other = await createEstate(t, a.key);
    await expect(t.app.services.navigators.forPage(a.id, other.id, nav)).rejects.toThrow(/not found/);
  });
});
