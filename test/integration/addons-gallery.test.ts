import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, call, expectContiguous, expectError } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { createEstate } from '../helpers/factories.js';

describe('gallery add-on', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;
  let estate: string;
  let base: string;
  const image = async (org = a.id, mimeType = 'image/jpeg') => (await insertAssetRow(t.db, org, { mimeType })).id;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Gallery A');
    b = await t.createOrg('Gallery B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
    estate = (await createEstate(t, a.key)).id;
    base = `/api/v1/estates/${estate}/gallery`;
  });
  afterAll(async () => t?.close());

  it('is off with no record; PUT enables it, creating the record, and repeating is safe', async () => {
    const other = (await createEstate(t, a.key)).id;
    expect(await call(t, 'GET', `/api/v1/estates/${other}/gallery`, undefined, undefined, 200)).toEqual({ enabled: false, sections: [], items: [] });
    const on = await call(t, 'PUT', `/api/v1/estates/${other}/gallery`, a.key, { enabled: true }, 200);
    expect(on).toEqual({ enabled: true, sections: [], items: [] });
    expect(await call(t, 'PUT', `/api/v1/estates/${other}/gallery`, a.key, { enabled: true }, 200)).toEqual(on);
    expect(await call(t, 'GET', `/api/v1/estates/${other}/gallery`, undefined, undefined, 200)).toEqual(on);
    const off = await call(t, 'PUT', `/api/v1/estates/${other}/gallery`, a.key, { enabled: false }, 200);
    expect(off.enabled).toBe(false);
  });

  it('PUT enable validates its body and its estate', async () => {
    expectError(await t.request({ method: 'PUT', url: base, key: a.key, body: {} }), 422, /enabled is required/);
    expectError(await t.request({ method: 'PUT', url: base, key: a.key, body: { enabled: 'yes' } }), 422, /enabled/);
    expectError(await t.request({ method: 'PUT', url: base, key: a.key, body: { enabled: true, extra: 1 } }), 422, /extra/);
    expectError(
      await t.request({ method: 'PUT', url: `/api/v1/estates/${MISSING_ID}/gallery`, key: a.key, body: { enabled: true } }),
      404,
      `Estate with id ${MISSING_ID} not found`,
    );
    expectError(await t.request({ method: 'PUT', url: '/api/v1/estates/not-a-uuid/gallery', key: a.key, body: { enabled: true } }), 404, /Estate/);
    expectError(await t.request({ method: 'PUT', url: base, key: b.key, body: { enabled: true } }), 404, /Estate/);
    expectError(await t.request({ method: 'PUT', url: base, body: { enabled: true } }), 401);
    expectError(await t.request({ method: 'PUT', url: base, key: readOnly, body: { enabled: true } }), 403);
  });

  it('sections: create appends or inserts at order, PATCH changes only sent fields, order PUT is all-or-nothing', async () => {
    const e = (await createEstate(t, a.key)).id;
    const url = `/api/v1/estates/${e}/gallery`;
    const s1 = await call(t, 'POST', `${url}/sections`, a.key, { title: 'Interiors', description: 'Inside' }, 201);
    expect(s1).toMatchObject({ title: 'Interiors', description: 'Inside', order: 0, items: [] });
    expect(s1.id).toMatch(/^[0-9a-f-]{36}$/);
    const s2 = await call(t, 'POST', `${url}/sections`, a.key, { title: 'Exteriors' }, 201);
    expect(s2).toMatchObject({ order: 1, description: null });
    const s0 = await call(t, 'POST', `${url}/sections`, a.key, { title: 'Aerial', order: 0 }, 201);
    expect(s0.order).toBe(0);
    let doc = await call(t, 'GET', url, a.key, undefined, 200);
    expect(doc.sections.map((s: { id: string }) => s.id)).toEqual([s0.id, s1.id, s2.id]);
    expectContiguous(doc.sections);

    const patched = await call(t, 'PATCH', `${url}/sections/${s1.id}`, a.key, { title: 'Rooms' }, 200);
    expect(patched).toMatchObject({ title: 'Rooms', description: 'Inside', order: 1 });
    const moved = await call(t, 'PATCH', `${url}/sections/${s2.id}`, a.key, { order: 0, description: null }, 200);
    expect(moved).toMatchObject({ order: 0, description: null, title: 'Exteriors' });

    expectError(await t.request({ method: 'POST', url: `${url}/sections`, key: a.key, body: { description: 'x' } }), 422, /title is required/);
    expectError(await t.request({ method: 'POST', url: `${url}/sections`, key: a.key, body: { title: 'x'.repeat(201) } }), 422, /title/);
    expectError(await t.request({ method: 'POST', url: `${url}/sections`, key: a.key, body: { title: 'ok', order: -1 } }), 422, /order/);
    expectError(await t.request({ method: 'PATCH', url: `${url}/sections/${MISSING_ID}`, key: a.key, body: { title: 'x' } }), 404, /Gallery section/);

    const before = (await call(t, 'GET', url, a.key)).sections.map((s: { id: string }) => s.id);
    const [x, y, z] = before;
    expectError(await t.request({ method: 'PUT', url: `${url}/sections/order`, key: a.key, body: { orderedIds: [x, y] } }), 404);
    expectError(await t.request({ method: 'PUT', url: `${url}/sections/order`, key: a.key, body: { orderedIds: [x, y, y] } }), 404);
    expectError(await t.request({ method: 'PUT', url: `${url}/sections/order`, key: a.key, body: { orderedIds: [x, y, z, x] } }), 404);
    expectError(await t.request({ method: 'PUT', url: `${url}/sections/order`, key: a.key, body: { orderedIds: [x, y, MISSING_ID] } }), 404);
    expectError(await t.request({ method: 'PUT', url: `${url}/sections/order`, key: a.key, body: { orderedIds: [x, y, 'nope'] } }), 404);
    expectError(await t.request({ method: 'PUT', url: `${url}/sections/order`, key: a.key, body: { orderedIds: 'x' } }), 422, /orderedIds/);
    expect((await call(t, 'GET', url, a.key)).sections.map((s: { id: string }) => s.id)).toEqual(before);
    const reordered = await call(t, 'PUT', `${url}/sections/order`, a.key, { orderedIds: [z, x, y] }, 200);
    expect(reordered.map((s: { id: string }) => s.id)).toEqual([z, x, y]);
    expectContiguous(reordered);

    await call(t, 'DELETE', `${url}/sections/${x}`, a.key, undefined, 204);
    doc = await call(t, 'GET', url, a.key);
    expect(doc.sections.map((s: { id: string }) => s.id)).toEqual([z, y]);
    expectContiguous(doc.sections);
    expectError(await t.request({ method: 'DELETE', url: `${url}/sections/${x}`, key: a.key }), 404);
  });

  it('items: image and video only (400), own assets only (404), sections of this gallery only', async () => {
    const img = await call(t, 'POST', `${base}/items`, a.key, { assetId: await image(), caption: 'Kitchen' }, 201);
    expect(img).toMatchObject({ caption: 'Kitchen', sectionId: null, order: 0, asset: { mimeType: 'image/jpeg', sizeBytes: 1024 } });
    expect(img.asset.src).toMatch(/^http:\/\/localhost:3000\/files\/.+/);
    expect(img.asset.id).toBe(img.assetId);
    const video = await call(t, 'POST', `${base}/items`, a.key, { assetId: await image(a.id, 'video/mp4') }, 201);
    expect(video).toMatchObject({ caption: null, order: 1 });

    expectError(
      await t.request({ method: 'POST', url: `${base}/items`, key: a.key, body: { assetId: await image(a.id, 'application/pdf') } }),
      400,
      /image and video/,
    );
    expectError(await t.request({ method: 'POST', url: `${base}/items`, key: a.key, body: { assetId: await image(b.id) } }), 404, /Asset/);
    expectError(await t.request({ method: 'POST', url: `${base}/items`, key: a.key, body: { assetId: MISSING_ID } }), 404, /Asset/);
    expectError(
      await t.request({ method: 'POST', url: `${base}/items`, key: a.key, body: { assetId: await image(), sectionId: MISSING_ID } }),
      404,
      /Gallery section/,
    );
    expectError(await t.request({ method: 'POST', url: `${base}/items`, key: a.key, body: { caption: 'x' } }), 422, /assetId is required/);
    expectError(await t.request({ method: 'POST', url: `${base}/items`, key: a.key, body: { assetId: 5 } }), 422, /assetId/);
    expectError(await t.request({ method: 'POST', url: `${base}/items`, key: b.key, body: { assetId: await image(b.id) } }), 404, /Estate/);
    expectError(await t.request({ method: 'POST', url: `${base}/items`, body: { assetId: await image() } }), 401);
    expectError(await t.request({ method: 'POST', url: `${base}/items`, key: readOnly, body: { assetId: await image() } }), 403);
    expectError(await t.request({ method: 'PATCH', url: `${base}/items/${img.id}`, key: a.key, body: { assetId: await image(a.id, 'text/plain') } }), 400);
    expectError(await t.request({ method: 'PATCH', url: `${base}/items/${img.id}`, key: b.key, body: { caption: 'x' } }), 404);
  });

  it('moves items between sections and ungrouped by PATCH, orders each set, keeps positions contiguous', async () => {
    const e = (await createEstate(t, a.key)).id;
    const url = `/api/v1/estates/${e}/gallery`;
    const sec = await call(t, 'POST', `${url}/sections`, a.key, { title: 'Living' }, 201);
    const loose = [];
    for (let i = 0; i < 3; i++) loose.push((await call(t, 'POST', `${url}/items`, a.key, { assetId: await image() }, 201)).id);
    const grouped = [];
    for (let i = 0; i < 2; i++) grouped.push((await call(t, 'POST', `${url}/items`, a.key, { assetId: await image(), sectionId: sec.id }, 201)).id);
    const first = await call(t, 'POST', `${url}/items`, a.key, { assetId: await image(), sectionId: sec.id, order: 0 }, 201);
    expect(first.order).toBe(0);
    grouped.unshift(first.id);

    const moved = await call(t, 'PATCH', `${url}/items/${loose[1]}`, a.key, { sectionId: sec.id, order: 1 }, 200);
    expect(moved).toMatchObject({ sectionId: sec.id, order: 1 });
    let doc = await call(t, 'GET', url, a.key);
    expect(doc.items.map((i: { id: string }) => i.id)).toEqual([loose[0], loose[2]]);
    expect(doc.sections[0].items.map((i: { id: string }) => i.id)).toEqual([grouped[0], loose[1], grouped[1], grouped[2]]);
    expectContiguous(doc.items);
    expectContiguous(doc.sections[0].items);

    const back = await call(t, 'PATCH', `${url}/items/${grouped[0]}`, a.key, { sectionId: null, caption: 'Hall' }, 200);
    expect(back).toMatchObject({ sectionId: null, order: 2, caption: 'Hall' });

    const ungroupedIds = [back.id, loose[2], loose[0]];
    const ordered = await call(t, 'PUT', `${url}/items/order`, a.key, { orderedIds: ungroupedIds }, 200);
    expect(ordered.map((i: { id: string }) => i.id)).toEqual(ungroupedIds);
    expectError(await t.request({ method: 'PUT', url: `${url}/items/order`, key: a.key, body: { orderedIds: [back.id, loose[2], grouped[1]] } }), 404);
    const inSection = [grouped[2], grouped[1], loose[1]];
    const sectionOrdered = await call(t, 'PUT', `${url}/sections/${sec.id}/items/order`, a.key, { orderedIds: inSection }, 200);
    expect(sectionOrdered.map((i: { id: string }) => i.id)).toEqual(inSection);
    expectContiguous(sectionOrdered);
    expectError(await t.request({ method: 'PUT', url: `${url}/sections/${sec.id}/items/order`, key: a.key, body: { orderedIds: inSection.slice(1) } }), 404);
    expectError(
      await t.request({ method: 'PUT', url: `${url}/sections/${MISSING_ID}/items/order`, key: a.key, body: { orderedIds: [] } }),
      404,
      /Gallery section/,
    );

    await call(t, 'DELETE', `${url}/items/${loose[2]}`, a.key, undefined, 204);
    doc = await call(t, 'GET', url, a.key);
    expect(doc.items.map((i: { id: string }) => i.id)).toEqual([back.id, loose[0]]);
    expectContiguous(doc.items);

    // Deleting the section appends its items to ungrouped, in their order.
    await call(t, 'DELETE', `${url}/sections/${sec.id}`, a.key, undefined, 204);
    doc = await call(t, 'GET', url, a.key);
    expect(doc.sections).toEqual([]);
    expect(doc.items.map((i: { id: string }) => i.id)).toEqual([back.id, loose[0], ...inSection]);
    expectContiguous(doc.items);
    expect(doc.items.every((i: { sectionId: string | null }) => i.sectionId === null)).toBe(true);
  });

  it('concurrent creates and reorders on one parent leave positions 0..n-1', async () => {
    const e = (await createEstate(t, a.key)).id;
    const url = `/api/v1/estates/${e}/gallery`;
    const assets = await Promise.all(Array.from({ length: 12 }, () => image()));
    const results = await Promise.all(
      assets.map((assetId, i) => t.request({ method: 'POST', url: `${url}/items`, key: a.key, body: { assetId, order: i % 3 } })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(assets.map(() => 201));
    let doc = await call(t, 'GET', url, a.key);
    expect(doc.items).toHaveLength(12);
    expectContiguous(doc.items);

    const ids: string[] = doc.items.map((i: { id: string }) => i.id);
    const orders = [ids.slice().reverse(), ids.slice(6).concat(ids.slice(0, 6)), ids];
    const reorders = await Promise.all([
      ...orders.map((orderedIds) => t.request({ method: 'PUT', url: `${url}/items/order`, key: a.key, body: { orderedIds } })),
      t.request({ method: 'POST', url: `${url}/items`, key: a.key, body: { assetId: await image(), order: 0 } }),
      t.request({ method: 'DELETE', url: `${url}/items/${ids[3]}`, key: a.key }),
    ]);
    for (const r of reorders) expect([200, 201, 204, 404]).toContain(r.statusCode);
    doc = await call(t, 'GET', url, a.key);
    expect(doc.items).toHaveLength(12);
    expectContiguous(doc.items);
    expect(new Set(doc.items.map((i: { id: string }) => i.id)).size).toBe(12);
  });
});
