import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, call, expectContiguous, expectError } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { createEstate } from '../helpers/factories.js';

describe('downloads add-on', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;
  let base: string;
  const asset = async (org = a.id, mimeType = 'application/pdf') => (await insertAssetRow(t.db, org, { mimeType, name: 'Price list.pdf' })).id;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Downloads A');
    b = await t.createOrg('Downloads B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
    base = `/api/v1/estates/${(await createEstate(t, a.key)).id}/downloads`;
  });
  afterAll(async () => t?.close());

  it('enables by PUT, idempotently', async () => {
    expect(await call(t, 'PUT', base, a.key, { enabled: true }, 200)).toEqual({ enabled: true, groups: [] });
    expect(await call(t, 'PUT', base, a.key, { enabled: true }, 200)).toEqual({ enabled: true, groups: [] });
    expectError(await t.request({ method: 'PUT', url: base, key: b.key, body: { enabled: true } }), 404, /Estate/);
    expectError(await t.request({ method: 'PUT', url: base, key: readOnly, body: { enabled: true } }), 403);
  });

  it('groups: create (appended or at order), PATCH, all-or-nothing order, DELETE takes the items along', async () => {
    const g1 = await call(t, 'POST', `${base}/groups`, a.key, { title: 'Price lists' }, 201);
    expect(g1).toMatchObject({ title: 'Price lists', order: 0, items: [] });
    const g2 = await call(t, 'POST', `${base}/groups`, a.key, { title: 'Plans' }, 201);
    const g0 = await call(t, 'POST', `${base}/groups`, a.key, { title: 'Brochures', order: 0 }, 201);
    expect([g0.order, (await call(t, 'GET', base, a.key)).groups.map((g: { id: string }) => g.id)]).toEqual([0, [g0.id, g1.id, g2.id]]);
    expectError(await t.request({ method: 'POST', url: `${base}/groups`, key: a.key, body: {} }), 422, /title is required/);
    expectError(await t.request({ method: 'POST', url: `${base}/groups`, key: a.key, body: { title: 'x', color: 'red' } }), 422, /color/);
    expect(await call(t, 'PATCH', `${base}/groups/${g2.id}`, a.key, { title: 'Floor plans' }, 200)).toMatchObject({ title: 'Floor plans', order: 2 });
    expectError(await t.request({ method: 'PATCH', url: `${base}/groups/${g2.id}`, key: b.key, body: { title: 'x' } }), 404);

    for (const orderedIds of [
      [g0.id, g1.id],
      [g0.id, g1.id, g1.id],
      [g0.id, g1.id, MISSING_ID],
      [g2.id, g1.id, g0.id, MISSING_ID],
    ]) {
      expectError(await t.request({ method: 'PUT', url: `${base}/groups/order`, key: a.key, body: { orderedIds } }), 404);
    }
    const ordered = await call(t, 'PUT', `${base}/groups/order`, a.key, { orderedIds: [g2.id, g1.id, g0.id] }, 200);
    expect(ordered.map((g: { id: string }) => g.id)).toEqual([g2.id, g1.id, g0.id]);
    expectContiguous(ordered);

    await call(t, 'POST', `${base}/groups/${g1.id}/items`, a.key, { assetId: await asset() }, 201);
    await call(t, 'DELETE', `${base}/groups/${g1.id}`, a.key, undefined, 204);
    const doc = await call(t, 'GET', base, a.key);
    expect(doc.groups.map((g: { id: string }) => g.id)).toEqual([g2.id, g0.id]);
    expectContiguous(doc.groups);
    const left = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM downloads_items WHERE group_id = $1', [g1.id]);
    expect(left[0]!.n).toBe(0);
  });

  it('items: any own asset (404 foreign), label default, PATCH, order within the group, DELETE', async () => {
    const group = await call(t, 'POST', `${base}/groups`, a.key, { title: 'Documents' }, 201);
    const items = `${base}/groups/${group.id}/items`;
    const first = await call(t, 'POST', items, a.key, { assetId: await asset(), label: 'Price list' }, 201);
    expect(first).toMatchObject({ label: 'Price list', order: 0, asset: { mimeType: 'application/pdf', name: 'Price list.pdf' } });
    const second = await call(t, 'POST', items, a.key, { assetId: await asset(a.id, 'application/zip') }, 201);
    expect(second).toMatchObject({ label: 'Price list.pdf', order: 1 });
    const top = await call(t, 'POST', items, a.key, { assetId: await asset(a.id, 'image/png'), label: 'Render', order: 0 }, 201);
    expect(top.order).toBe(0);

    expectError(await t.request({ method: 'POST', url: items, key: a.key, body: { assetId: await asset(b.id) } }), 404, /Asset/);
    expectError(await t.request({ method: 'POST', url: items, key: a.key, body: { assetId: 'not-an-id' } }), 404, /Asset/);
    expectError(await t.request({ method: 'POST', url: items, key: a.key, body: { assetId: await asset(), label: 7 } }), 422, /label/);
    expectError(
      await t.request({ method: 'POST', url: `${base}/groups/${MISSING_ID}/items`, key: a.key, body: { assetId: await asset() } }),
      404,
      /Downloads group/,
    );
    expectError(await t.request({ method: 'POST', url: items, key: b.key, body: { assetId: await asset(b.id) } }), 404, /Estate/);
    expectError(await t.request({ method: 'POST', url: items, body: { assetId: await asset() } }), 401);

    expect(await call(t, 'PATCH', `${items}/${first.id}`, a.key, { label: 'Prices 2026' }, 200)).toMatchObject({ label: 'Prices 2026', order: 1 });
    const other = await call(t, 'POST', `${base}/groups`, a.key, { title: 'Other' }, 201);
    expectError(
      await t.request({ method: 'PATCH', url: `${base}/groups/${other.id}/items/${first.id}`, key: a.key, body: { label: 'x' } }),
      404,
      /Downloads item/,
    );
    expectError(await t.request({ method: 'PUT', url: `${base}/groups/${other.id}/items/order`, key: a.key, body: { orderedIds: [first.id] } }), 404);

    const wanted = [second.id, first.id, top.id];
    expectError(await t.request({ method: 'PUT', url: `${items}/order`, key: a.key, body: { orderedIds: wanted.slice(1) } }), 404);
    const ordered = await call(t, 'PUT', `${items}/order`, a.key, { orderedIds: wanted }, 200);
    expect(ordered.map((i: { id: string }) => i.id)).toEqual(wanted);
    expectContiguous(ordered);

    await call(t, 'DELETE', `${items}/${first.id}`, a.key, undefined, 204);
    const g = (await call(t, 'GET', base, a.key)).groups.find((x: { id: string }) => x.id === group.id);
    expect(g.items.map((i: { id: string }) => i.id)).toEqual([second.id, top.id]);
    expectContiguous(g.items);
  });
});
