import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { newId } from '../../src/ids.js';
import { call, expectError } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { createApartment } from '../helpers/factories.js';

/**
 * Shape coordinates are the renders' pixels (issue 36; DECISIONS, the viewer buyers know): the first
 * frame sizes the navigator, every frame has the overlay's aspect ratio, shapes are saved with If-Match,
 * and migration 0021 rescales navigators made before the rule.
 */
describe(`navigator sizes are the renders' pixels, on ${TEST_DATABASE}`, () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let apartment: string;
  const image = async (width: number, height: number) => (await insertAssetRow(t.db, a.id, { width, height })).id;
  const setup = async (name: string) => {
    const s = await call(t, 'POST', '/api/v1/estate/setup', a.key, { name }, 201);
    return { nav: s.navigator.id as string, building: s.building.id as string };
  };
  const frames = async (nav: string) => (await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200)).images.length;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Pixels A');
    b = await t.createOrg('Pixels B');
  });
  afterAll(async () => t?.close());

  it('the first frame sets the sizes: a 4:3 render is accepted and shapes are drawn in its own pixels', async () => {
    const { nav, building } = await setup('Four by three');
    apartment = (await createApartment(t, a.key, building)).id;
    const frame = await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: await image(1600, 1200), angle: 0 }, 201);
    const doc = await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200);
    expect(doc.options).toMatchObject({ sourceWidth: 1600, sourceHeight: 1200, overlayWidth: 1600, overlayHeight: 1200 });
    const url = `/api/v1/navigator/${nav}/images/${frame.id}/shapes`;
    const put = await call(t, 'PUT', url, a.key, [{ referenceType: 'apartment', referenceId: apartment, shape: 'M0 0L1600 0L1600 1200L0 1200Z' }], 200);
    expect(put.shapes[0].shape).toBe('M0 0L1600 0 1600 1200 0 1200Z');
    expectError(
      await t.request({ method: 'PUT', url, key: a.key, body: [{ referenceType: 'apartment', referenceId: apartment, shape: 'M0 0L1601 0L0 5Z' }] }),
      422,
      /outside the overlay 0\.\.1600 × 0\.\.1200/,
    );
    // Later frames do not change the sizes: one of the same aspect at another resolution is a frame like any other.
    await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: await image(800, 600), angle: 90 }, 201);
    // 1606 × 1200 is 0.4 % wider: within 1 %.
    await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: await image(1606, 1200), angle: 180 }, 201);
    expect((await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200)).options.overlayWidth).toBe(1600);
  });

  it('a frame of another aspect ratio is 422 naming both sizes, on create and on changing a frame’s asset; nothing is stored', async () => {
    const { nav } = await setup('Wrong aspect');
    const first = await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: await image(1600, 1200), angle: 0 }, 201);
    const wide = await image(1920, 1080);
    const both = /the image is 1920 × 1080 pixels \(aspect 1\.778\) but the navigator's overlay is 1600 × 1200 .*aspect 1\.333/;
    expectError(await t.request({ method: 'POST', url: `/api/v1/navigator/${nav}/images`, key: a.key, body: { assetId: wide, angle: 45 } }), 422, both);
    expect(await frames(nav)).toBe(1);
    const frameUrl = `/api/v1/navigator/${nav}/images/${first.id}`;
    expectError(await t.request({ method: 'PATCH', url: frameUrl, key: a.key, body: { assetId: wide } }), 422, both);
    expect((await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200)).images[0].assetId).toBe(first.assetId);
    const sameAspect = await image(1200, 900);
    expect((await call(t, 'PATCH', frameUrl, a.key, { assetId: sameAspect }, 200)).assetId).toBe(sameAspect);
    // The overlay cannot move to another aspect ratio while frames show this one; a scale of it is fine.
    expectError(
      await t.request({ method: 'PATCH', url: `/api/v1/navigator/${nav}`, key: a.key, body: { options: { overlayWidth: 1920, overlayHeight: 1080 } } }),
      422,
      /1920 × 1080 \(aspect 1\.778\) does not have the aspect ratio of the frame at 0°, whose image is 1200 × 900 pixels/,
    );
    await call(t, 'PATCH', `/api/v1/navigator/${nav}`, a.key, { options: { overlayWidth: 3200, overlayHeight: 2400 } }, 200);
  });

  it('sizes someone set are kept: the first frame must match them', async () => {
    const { nav } = await setup('Set on purpose');
    await call(t, 'PATCH', `/api/v1/navigator/${nav}`, a.key, { options: { overlayWidth: 1920, overlayHeight: 1080 } }, 200);
    expectError(
      await t.request({ method: 'POST', url: `/api/v1/navigator/${nav}/images`, key: a.key, body: { assetId: await image(1600, 1200), angle: 0 } }),
      422,
      /1600 × 1200 .* 1920 × 1080/,
    );
    await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: await image(3840, 2160), angle: 0 }, 201);
    expect((await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200)).options).toMatchObject({ overlayWidth: 1920, sourceWidth: 1920 });
  });

  it('shapes are read with their ETag and saved with If-Match: a stale one is 412 and stores nothing', async () => {
    const { nav, building } = await setup('If-Match');
    const frame = await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: await image(1600, 1200), angle: 0 }, 201);
    const url = `/api/v1/navigator/${nav}/images/${frame.id}/shapes`;
    const shape = (d: string) => [{ referenceType: 'building', referenceId: building, shape: d }];
    const read = await t.request({ method: 'GET', url, key: a.key });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual([]);
    const etag = read.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const notModified = await t.request({ method: 'GET', url, key: a.key, headers: { 'if-none-match': etag } });
    expect(notModified.statusCode).toBe(304);
    const mine = await t.request({ method: 'PUT', url, key: a.key, headers: { 'if-match': etag }, body: shape('M0 0L10 0L10 10Z') });
    expect(mine.statusCode, mine.body).toBe(200);
    const next = mine.headers.etag as string;
    expect(next).not.toBe(etag);
    expect((await t.request({ method: 'GET', url, key: a.key })).headers.etag).toBe(next);
    // A second tab still holding the first ETag: 412, and the first save stays.
    expectError(await t.request({ method: 'PUT', url, key: a.key, headers: { 'if-match': etag }, body: shape('M0 0L20 0L20 20Z') }), 412, /If-Match/);
    expect((await call(t, 'GET', url, a.key, undefined, 200))[0].shape).toBe('M0 0L10 0 10 10Z');
    await call(t, 'PUT', url, a.key, shape('M0 0L30 0L30 30Z'), 200);
    expectError(await t.request({ method: 'GET', url, key: b.key }), 404, /Navigator/);
    expectError(await t.request({ method: 'GET', url }), 401);
    expectError(await t.request({ method: 'GET', url: `/api/v1/navigator/${nav}/images/${nav}/shapes`, key: a.key }), 404, /Navigator image/);
  });

  it('migration 0021 rescales a 1920 × 1080 navigator whose first frame is 1600 × 1200: shapes, POIs and sizes', async () => {
    const { nav, building } = await setup('Made before the rule');
    const first = await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: await image(1600, 1200), angle: 0 }, 201);
    const untouched = await setup('No frames yet');
    const chosen = await setup('Chosen sizes');
    await call(t, 'PATCH', `/api/v1/navigator/${chosen.nav}`, a.key, { options: { overlayWidth: 1000, overlayHeight: 1000 } }, 200);
    // The database as it was before 0021: default sizes, shapes and a POI in 1920 × 1080 coordinates.
    await t.db.query(
      `UPDATE navigators SET options = options || '{"sourceWidth":1920,"sourceHeight":1080,"overlayWidth":1920,"overlayHeight":1080}'::jsonb WHERE id = $1`,
      [nav],
    );
    const shapes = [
      ['M0 0L1920 0L1920 1080L0 1080Z', 1920, 1080],
      ['M960 540A96 54 0 0 1 1152 540Z', 1152, 594],
    ] as const;
    for (const [i, [d, maxX, maxY]] of shapes.entries()) {
      await t.db.query(
        'INSERT INTO navigator_shapes (id, organization_id, frame_id, position, building_id, shape, max_x, max_y) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [newId(), a.id, first.id, i, building, d, maxX, maxY],
      );
    }
    await t.db.query(`INSERT INTO navigator_pois (id, organization_id, frame_id, position, x, y, type) VALUES ($1, $2, $3, 0, 960, 540, 'info')`, [
      newId(),
      a.id,
      first.id,
    ]);
    await t.db.query('ALTER TABLE navigators DROP COLUMN sizes_set');
    await t.db.query(`DELETE FROM schema_migrations WHERE version = '0021_navigator_render_pixels'`);

    expect(await migrate(t.db)).toEqual(['0021_navigator_render_pixels']);

    const doc = await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200);
    expect(doc.options).toMatchObject({ sourceWidth: 1600, sourceHeight: 1200, overlayWidth: 1600, overlayHeight: 1200 });
    const [rect, arc] = doc.images[0].shapes.map((s: { shape: string }) => s.shape);
    expect(rect).toBe('M0 0L1600 0 1600 1200 0 1200Z');
    // x * 1600/1920, y * 1200/1080: the arc's ellipse is rescaled, its end moves with it.
    expect(arc).toMatch(/^M800 600A80 60 0 0 1 960 600Z$/);
    expect(doc.images[0].pois[0]).toMatchObject({ x: 800, y: 600 });
    const extents = await t.db.query<{ max_x: number; max_y: number }>('SELECT max_x, max_y FROM navigator_shapes WHERE frame_id = $1 ORDER BY position', [
      first.id,
    ]);
    expect(extents[0]).toEqual({ max_x: 1600, max_y: 1200 });
    expect(extents[1]!.max_x).toBeCloseTo(960, 3);
    // A shape saved in the render's pixels now fits, one beyond them does not.
    const url = `/api/v1/navigator/${nav}/images/${first.id}/shapes`;
    await call(t, 'PUT', url, a.key, [{ referenceType: 'building', referenceId: building, shape: 'M0 0L1600 1200L0 1200Z' }], 200);
    const sized = await t.db.query<{ id: string; sizes_set: boolean }>('SELECT id, sizes_set FROM navigators WHERE id = ANY($1::uuid[])', [
      [nav, untouched.nav, chosen.nav],
    ]);
    const sizesSet = Object.fromEntries(sized.map((r) => [r.id, r.sizes_set]));
    expect(sizesSet).toEqual({ [nav]: true, [untouched.nav]: false, [chosen.nav]: true });
    // The navigator without frames still takes its first frame's pixels.
    await call(t, 'POST', `/api/v1/navigator/${untouched.nav}/images`, a.key, { assetId: await image(1000, 750), angle: 0 }, 201);
    expect((await call(t, 'GET', `/api/v1/navigator/${untouched.nav}`, a.key, undefined, 200)).options.overlayWidth).toBe(1000);
  });
});
