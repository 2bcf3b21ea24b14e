import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../helpers/addon-kit.js';
import { ADMIN_TOKEN, type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { createApartment, createBuilding, createEstate } from '../helpers/factories.js';

/** Shapes, POIs and the theme of a navigator (issue 26): what a page inlines is only what the service wrote. */
describe('navigator shapes, POIs and theme', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let estateId: string;
  let nav: string;
  let frame: string;
  let apartment: string;
  let building: string;
  let shapesUrl: string;
  const stored = async () => (await t.db.query<{ shape: string }>('SELECT shape FROM navigator_shapes ORDER BY shape')).map((r) => r.shape);

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Shapes A');
    b = await t.createOrg('Shapes B');
    const setup = await call(t, 'POST', '/api/v1/estate/setup', a.key, { name: 'Hillside' }, 201);
    estateId = setup.estate.id;
    nav = setup.navigator.id;
    building = setup.building.id;
    apartment = (await createApartment(t, a.key, building)).id;
    const asset = (await insertAssetRow(t.db, a.id, { width: 1920, height: 1080 })).id;
    frame = (await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: asset, angle: 0 }, 201)).id;
    shapesUrl = `/api/v1/navigator/${nav}/images/${frame}/shapes`;
  });
  afterAll(async () => t?.close());

  it('PUT shapes stores normalised path data (absolute commands, rounded) in the order sent, and replaces what was there', async () => {
    const body = [
      { name: 'A-101', referenceType: 'apartment', referenceId: apartment, shape: 'm10,20 l100 0 v50 h-100 z' },
      { referenceType: 'building', referenceId: building, description: 'The tower', shape: 'M 0 20 C 10 30, 20 30, 30 20 Q 40 25 50 20 A 10 10 0 0 1 70 20 Z' },
      { referenceType: 'apartment', referenceId: apartment.toUpperCase(), shape: 'M1.23456 2.5L1920 1080' },
    ];
    const put = await call(t, 'PUT', shapesUrl, a.key, body, 200);
    expect(put.id).toBe(frame);
    expect(put.shapes.map((s: { shape: string }) => s.shape)).toEqual([
      'M10 20L110 20V70H10Z',
      'M0 20C10 30 20 30 30 20Q40 25 50 20A10 10 0 0 1 70 20Z',
      'M1.235 2.5L1920 1080',
    ]);
    expect(put.shapes[0]).toMatchObject({ name: 'A-101', description: null, referenceType: 'apartment', referenceId: apartment });
    expect(put.shapes[1]).toMatchObject({ name: null, description: 'The tower', referenceType: 'building', referenceId: building });
    expect(put.shapes[2].referenceId).toBe(apartment);
    const read = await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200);
    expect(read.images[0].shapes).toEqual(put.shapes);

    const replaced = await call(t, 'PUT', shapesUrl, a.key, [{ referenceType: 'apartment', referenceId: apartment, shape: 'M1 1L2 2' }], 200);
    expect(replaced.shapes).toHaveLength(1);
    expect(await stored()).toEqual(['M1 1L2 2']);
    expect((await call(t, 'PUT', shapesUrl, a.key, [], 200)).shapes).toEqual([]);
  });

  it('refuses any bad item with 422 naming [i].field and stores nothing', async () => {
    await call(t, 'PUT', shapesUrl, a.key, [{ referenceType: 'apartment', referenceId: apartment, shape: 'M5 5L6 6' }], 200);
    const good = { referenceType: 'apartment', referenceId: apartment, shape: 'M0 0L10 10' };
    const cases: Array<[string, unknown, RegExp]> = [
      ['a path that does not parse', 'M 10 10 L', /\[1\]\.shape is not SVG path data/],
      ['a point outside', 'M 0 0 L 1921 5', /\[1\]\.shape has a point \(1921, 5\) outside/],
      ['a negative point', 'M -1 0 L 5 5', /\[1\]\.shape has a point/],
      ['an arc bulging outside', 'M 10 10 A 500 500 0 1 1 20 10', /\[1\]\.shape has a point/],
      ['a script inside the path', 'M0 0L10 10"/><script>alert(1)</script>', /\[1\]\.shape is not SVG path data/],
      ['a quote inside the path', "M0 0L10 10' onload='x", /\[1\]\.shape is not SVG path data/],
      ['an Infinity spelling', 'M 1e400 0', /\[1\]\.shape has a number out of range/],
      ['a NaN spelling', 'M NaN 0', /\[1\]\.shape is not SVG path data/],
      ['svgpath’s non-SVG R command', 'M0 0 R 1 2 3 4', /\[1\]\.shape is not SVG path data/],
      ['no command', '   ', /\[1\]\.shape is not SVG path data/],
    ];
    for (const [, shape, message] of cases) {
      expectError(await t.request({ method: 'PUT', url: shapesUrl, key: a.key, body: [good, { ...good, shape }] }), 422, message);
    }
    const otherEstate = await createEstate(t, a.key);
    const elsewhere = await createApartment(t, a.key, (await createBuilding(t, a.key, otherEstate.id)).id);
    const bSetup = await call(t, 'POST', '/api/v1/estate/setup', b.key, { name: 'Theirs' }, 201);
    const theirs = await createApartment(t, b.key, bSetup.building.id);
    for (const [referenceType, referenceId] of [
      ['apartment', elsewhere.id],
      ['apartment', theirs.id],
      ['building', bSetup.building.id],
      ['apartment', building],
      ['apartment', 'not-a-uuid'],
    ]) {
      const res = await t.request({ method: 'PUT', url: shapesUrl, key: a.key, body: [good, { ...good, referenceType, referenceId }] });
      expectError(res, 422, /\[1\]\.referenceId must be the id of/);
    }
    expectError(await t.request({ method: 'PUT', url: shapesUrl, key: a.key, body: [{ ...good, referenceType: 'estate' }] }), 422, /\[0\]\.referenceType/);
    expectError(await t.request({ method: 'PUT', url: shapesUrl, key: a.key, body: [{ ...good, extra: 1 }] }), 422, /\[0\]\.extra is not allowed/);
    expectError(await t.request({ method: 'PUT', url: shapesUrl, key: a.key, body: [{ ...good, shape: 7 }] }), 422, /\[0\]\.shape/);
    // Several bad items are all named.
    const both = await t.request({ method: 'PUT', url: shapesUrl, key: a.key, body: [{ ...good, shape: 'x' }, good, { ...good, referenceId: theirs.id }] });
    expectError(both, 422, /\[0\]\.shape .*; \[2\]\.referenceId/);
    expectError(await t.request({ method: 'PUT', url: shapesUrl, key: a.key, body: { shapes: [good] } }), 400, /JSON array/);
    expect(await stored()).toEqual(['M5 5L6 6']);
  });

  it('limits: 2,000 shapes per frame; another organization’s navigator is 404; no key 401', async () => {
    const many = Array.from({ length: 2_000 }, (_, i) => ({ referenceType: 'apartment', referenceId: apartment, shape: `M${i % 1900} 0L${i % 1900} 1000Z` }));
    const put = await call(t, 'PUT', shapesUrl, a.key, many, 200);
    expect(put.shapes).toHaveLength(2_000);
    expectError(await t.request({ method: 'PUT', url: shapesUrl, key: a.key, body: [...many, many[0]] }), 422, /more than 2000 items/);
    expect((await stored()).length).toBe(2_000);
    expectError(await t.request({ method: 'PUT', url: shapesUrl, key: b.key, body: [] }), 404, /Navigator/);
    expectError(await t.request({ method: 'PUT', url: shapesUrl, body: [] }), 401);
    expectError(await t.request({ method: 'PUT', url: `/api/v1/navigator/${nav}/images/${nav}/shapes`, key: a.key, body: [] }), 404, /Navigator image/);
  });

  it('an apartment’s status or price change does not touch its shapes', async () => {
    await call(t, 'PUT', shapesUrl, a.key, [{ referenceType: 'apartment', referenceId: apartment, shape: 'M1 1L9 9' }], 200);
    const before = (await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200)).images[0].shapes;
    await call(t, 'PATCH', `/api/v1/apartment/${apartment}`, a.key, { status: 'SOLD', priceCents: 100 }, 200);
    expect((await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200)).images[0].shapes).toEqual(before);
  });

  it('the overlay cannot shrink below the shapes (409); shapes are checked against the current overlay', async () => {
    await call(t, 'PUT', shapesUrl, a.key, [{ referenceType: 'apartment', referenceId: apartment, shape: 'M0 0L1500 900' }], 200);
    const url = `/api/v1/navigator/${nav}`;
    // (The same aspect ratio as the frame's 1920 × 1080 render: another one is 422, navigator-render-pixels.test.ts.)
    expectError(await t.request({ method: 'PATCH', url, key: a.key, body: { options: { overlayWidth: 960, overlayHeight: 540 } } }), 409, /overlayWidth/);
    await call(t, 'PATCH', url, a.key, { options: { overlayWidth: 3840, overlayHeight: 2160 } }, 200);
    await call(t, 'PUT', shapesUrl, a.key, [{ referenceType: 'apartment', referenceId: apartment, shape: 'M0 0L3839 2159' }], 200);
    await call(t, 'PUT', shapesUrl, a.key, [], 200);
    await call(t, 'PATCH', url, a.key, { options: { overlayWidth: 1920, overlayHeight: 1080 } }, 200);
  });

  it('POIs: inside the overlay, panoramas of the organization, replaced whole', async () => {
    const url = `/api/v1/navigator/${nav}/images/${frame}/pois`;
    const panorama = await call(
      t,
      'POST',
      `/api/v1/admin/apartments/${apartment}/panoramas`,
      ADMIN_TOKEN,
      { name: 'Living room', src: 'https://example.com/p.jpg' },
      201,
    );
    const put = await call(
      t,
      'PUT',
      url,
      a.key,
      [
        { x: 10, y: 20, data: { type: 'panorama', panoramaId: panorama.id } },
        { x: 1920, y: 0, data: { type: 'info' } },
      ],
      200,
    );
    expect(put.pois).toHaveLength(2);
    expect(put.pois[0]).toMatchObject({ x: 10, y: 20, data: { type: 'panorama', panoramaId: panorama.id, startingPanoramaId: null } });
    expect(put.pois[1].data).toEqual({ type: 'info', panoramaId: null, startingPanoramaId: null });
    expectError(
      await t.request({ method: 'PUT', url, key: a.key, body: [{ x: 1921, y: 0, data: { type: 'info' } }] }),
      422,
      /\[0\]\.x must be within 0\.\.1920/,
    );
    expectError(await t.request({ method: 'PUT', url, key: a.key, body: [{ x: 0, y: -1, data: { type: 'info' } }] }), 422, /\[0\]\.y/);
    const bApartment = await createApartment(t, b.key, (await call(t, 'POST', '/api/v1/estate/setup', b.key, { name: 'Pano B' }, 201)).building.id);
    const theirs = await call(
      t,
      'POST',
      `/api/v1/admin/apartments/${bApartment.id}/panoramas`,
      ADMIN_TOKEN,
      { name: 'B', src: 'https://example.com/b.jpg' },
      201,
    );
    expectError(
      await t.request({ method: 'PUT', url, key: a.key, body: [{ x: 0, y: 0, data: { type: 'panorama', startingPanoramaId: theirs.id } }] }),
      422,
      /\[0\]\.data\.startingPanoramaId must be the id of a panorama/,
    );
    expectError(await t.request({ method: 'PUT', url, key: a.key, body: [{ x: 0, y: 0, data: {} }] }), 422, /\[0\]\.data\.type is required/);
    expect((await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200)).images[0].pois).toEqual(put.pois);
  });

  it('theme colours are parsed and rewritten; anything that is not a colour is 422 and nothing is stored', async () => {
    const url = `/api/v1/navigator/${nav}`;
    const theme = {
      fontFamily: 'fantasy',
      '--apartment-active-fill': 'rgba(0, 128, 0, 0.5)',
      '--apartment-sold-stroke': 'RED',
      '--background': '#FFF',
      '--primary': 'hsl(210 50% 40%)',
      '--promoted': 'hsla(0, 100%, 50%, 0.25)',
    };
    const doc = await call(t, 'PATCH', url, a.key, { options: { customTheme: theme } }, 200);
    expect(doc.options.customTheme).toEqual({
      fontFamily: 'fantasy',
      '--apartment-active-fill': 'rgba(0, 128, 0, 0.5)',
      '--apartment-sold-stroke': '#ff0000',
      '--background': '#ffffff',
      '--primary': '#336699',
      '--promoted': 'rgba(255, 0, 0, 0.25)',
    });
    // Key by key: one value changes, one is removed with null, the rest stay.
    const merged = await call(t, 'PATCH', url, a.key, { options: { customTheme: { '--background': 'black', '--promoted': null } } }, 200);
    expect(merged.options.customTheme).toMatchObject({ '--background': '#000000', '--apartment-sold-stroke': '#ff0000' });
    expect(merged.options.customTheme).not.toHaveProperty('--promoted');
    for (const value of [
      'red;}body{display:none}',
      'url(javascript:alert(1))',
      'lab(50% 40 59)',
      'color(srgb 1 0 0)',
      'currentcolor',
      '#12345',
      'expression(1)',
      'red !important',
      'rgb(1e 0)',
      'hsl(1e999 0% 0%)',
    ]) {
      const res = await t.request({ method: 'PATCH', url, key: a.key, body: { options: { customTheme: { '--border': value } } } });
      expectError(res, 422, /options\.customTheme\.--border must be a CSS colour/);
    }
    expect((await call(t, 'GET', url, a.key, undefined, 200)).options.customTheme).toEqual(merged.options.customTheme);
  });

  it('every change emits navigator.updated {estateId, navigatorId}', async () => {
    await call(t, 'POST', '/api/v1/webhooks', a.key, { url: 'http://127.0.0.1:9/hooks', events: ['navigator.updated'] }, 201);
    await call(t, 'PATCH', `/api/v1/navigator/${nav}`, a.key, { seoDescription: 'Events' }, 200);
    await call(t, 'PUT', shapesUrl, a.key, [], 200);
    expectError(
      await t.request({ method: 'PUT', url: shapesUrl, key: a.key, body: [{ referenceType: 'apartment', referenceId: apartment, shape: 'x' }] }),
      422,
    );
    const events = await t.db.query<{ type: string; body: string }>(
      "SELECT type, body FROM webhook_events WHERE organization_id = $1 AND type = 'navigator.updated' ORDER BY id",
      [a.id],
    );
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[0]!.body).data).toEqual({ estateId, navigatorId: nav });
  });
});
