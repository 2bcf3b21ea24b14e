import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createApartment } from '../helpers/factories.js';
import { multipart } from './assets-fixtures.js';
import { pngWithAlpha } from './image-fixtures.js';

interface Asset {
  id: string;
  variants: Array<{ width: number; src: string; sizeBytes: number | null }>;
}

/** A frame's asset (issue 26): uploaded renders, usedBy.navigatorFrames, variants in the read, asset deletion. */
describe('navigator frames and their assets', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let estateId: string;
  let nav: string;
  let apartment: string;

  const upload = async (key: string): Promise<Asset> => {
    const { body, headers } = multipart({ filename: 'render.png', type: 'image/png', data: await pngWithAlpha() });
    const res = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key, body, headers });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Asset;
  };
  const read = async () => call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200);

  beforeAll(async () => {
    // Variants are made when the test asks, so it sees the read before and after.
    t = await createTestApp({ imageJobs: 'on-demand' });
    a = await t.createOrg('Frames A');
    b = await t.createOrg('Frames B');
    const setup = await call(t, 'POST', '/api/v1/estate/setup', a.key, { name: 'Frames' }, 201);
    estateId = setup.estate.id;
    nav = setup.navigator.id;
    apartment = (await createApartment(t, a.key, setup.building.id)).id;
  });
  afterAll(async () => t?.close());

  it('an uploaded render is a frame; its variants show in the read once they are made', async () => {
    const render = await upload(a.key);
    const frame = await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: render.id, angle: 0 }, 201);
    expect(frame.asset).toMatchObject({ id: render.id, width: 700, height: 500, placeholder: null });
    expect(frame.asset.variants.map((v: { width: number }) => v.width)).toEqual([320, 640]);
    const before = await t.request({ method: 'GET', url: `/api/v1/navigator/${nav}`, key: a.key });
    await t.app.services.assets.images.ensure(a.id, render.id);
    const after = await t.request({ method: 'GET', url: `/api/v1/navigator/${nav}`, key: a.key });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const asset = after.json().images[0].asset;
    expect(asset.placeholder).toEqual(expect.any(String));
    expect(asset.variants.every((v: { sizeBytes: number | null }) => typeof v.sizeBytes === 'number')).toBe(true);
  });

  it('usedBy names the frames showing an asset; unused=true leaves it out', async () => {
    const render = await upload(a.key);
    const frame = await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: render.id, angle: 90 }, 201);
    const got = await call(t, 'GET', `/api/v1/asset/${render.id}`, a.key, undefined, 200);
    expect(got.usedBy.navigatorFrames).toEqual([frame.id]);
    const unused = (await call(t, 'GET', '/api/v1/asset?unused=true', a.key, undefined, 200)) as Asset[];
    expect(unused.map((x) => x.id)).not.toContain(render.id);
    const used = (await call(t, 'GET', '/api/v1/asset?unused=false', a.key, undefined, 200)) as Asset[];
    expect(used.map((x) => x.id)).toContain(render.id);
  });

  it('deleting an asset removes the frames that show it, their shapes with them, and emits navigator.updated', async () => {
    await call(t, 'POST', '/api/v1/webhooks', a.key, { url: 'http://127.0.0.1:9/hooks', events: ['navigator.updated'] }, 201);
    const render = await upload(a.key);
    const frame = await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: render.id, angle: 180 }, 201);
    await call(
      t,
      'PUT',
      `/api/v1/navigator/${nav}/images/${frame.id}/shapes`,
      a.key,
      [{ referenceType: 'apartment', referenceId: apartment, shape: 'M0 0L9 9Z' }],
      200,
    );
    const kept = (await read()).images.length;
    const events = async () =>
      (await t.db.query<{ body: string }>("SELECT body FROM webhook_events WHERE organization_id = $1 AND type = 'navigator.updated'", [a.id])).length;
    const before = await events();

    // Another organization cannot delete it, and nothing changes.
    expectError(await t.request({ method: 'DELETE', url: `/api/v1/asset/${render.id}`, key: b.key }), 404);
    expect((await read()).images).toHaveLength(kept);

    await call(t, 'DELETE', `/api/v1/asset/${render.id}`, a.key, undefined, 204);
    const after = await read();
    expect(after.images).toHaveLength(kept - 1);
    expect(after.images.map((i: { id: string }) => i.id)).not.toContain(frame.id);
    const shapes = await t.db.query('SELECT id FROM navigator_shapes WHERE frame_id = $1', [frame.id]);
    expect(shapes).toEqual([]);
    expect(await events()).toBe(before + 1);
    const page = await t.app.services.navigators.forPage(a.id, estateId);
    expect(page.value.images.map((i) => i.id)).not.toContain(frame.id);
  });
});
