import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { expect422, expectError, expectUnreadableBodies } from '../helpers/bad-input.js';
import { createApartment, createBuilding, createEstate } from '../helpers/factories.js';

const items = (n: number, prefix = 'Unit') =>
  Array.from({ length: n }, (_, i) => ({
    name: `${prefix} ${i + 1}`,
    priceCents: 100_000 + i,
    status: i % 2 ? 'ACTIVE' : 'BOOKED',
    apartmentData: { area: 40 + (i % 50), rooms: 1 + (i % 4), floor: i % 12, exposures: ['S'] },
  }));

describe('POST /api/v1/apartment/bulk', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;
  let buildingId: string;

  const count = async (building: string) =>
    (await t.request({ method: 'GET', url: '/api/v1/apartment', key: a.key, query: { buildingId: building, limit: '1' } })).json().count as number;
  const freshBuilding = async () => (await createBuilding(t, a.key, (await createEstate(t, a.key)).id)).id;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Bulk A');
    b = await t.createOrg('Bulk B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
    buildingId = await freshBuilding();
  });
  afterAll(async () => t?.close());

  it('creates 5,000 apartments in one call', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: a.key, body: { buildingId, apartments: items(5000) } });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(201);
    const { created, ids } = res.json() as { created: number; ids: string[] };
    expect(created).toBe(5000);
    expect(ids).toHaveLength(5000);
    expect(new Set(ids).size).toBe(5000);
    expect(await count(buildingId)).toBe(5000);
    const list = (await t.request({ method: 'GET', url: '/api/v1/apartment', key: a.key, query: { buildingId, offset: '4320', limit: '1' } })).json();
    expect(list.items[0]).toMatchObject({ name: 'Unit 4321', priceCents: 104_320, status: 'BOOKED', buildingId, apartmentType: 'RESIDENTIAL' });
    // ids[i] is the apartment of apartments[i].
    expect(list.items[0].id).toBe(ids[4320]);
    for (const i of [0, 1, 2499, 4999]) {
      const one = await t.request({ method: 'GET', url: `/api/v1/apartment/${ids[i]}`, key: a.key });
      expect(one.json().name).toBe(`Unit ${i + 1}`);
    }
  });

  it('answers the ids in request order, also when the names sort otherwise; a replay answers the same ids', async () => {
    const target = await freshBuilding();
    const apartments = ['Zeta', 'Alpha', 'Mu'].map((name) => ({ name }));
    const send = () =>
      t.request({
        method: 'POST',
        url: '/api/v1/apartment/bulk',
        key: a.key,
        body: { buildingId: target, apartments },
        headers: { 'idempotency-key': `bulk-ids-${target}` },
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const { ids } = first.json() as { ids: string[] };
    expect(first.json()).toEqual({ created: 3, ids });
    const names = [];
    for (const id of ids) names.push((await t.request({ method: 'GET', url: `/api/v1/apartment/${id}`, key: a.key })).json().name);
    expect(names).toEqual(['Zeta', 'Alpha', 'Mu']);
    const replay = await send();
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
    expect(await count(target)).toBe(3);
  });

  it('5,000 items with item 4,321 repeating an earlier name: 409 naming it, nothing created', async () => {
    const target = await freshBuilding();
    const apartments = items(5000);
    apartments[4320]!.name = ' unit 17 ';
    const res = await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: a.key, body: { buildingId: target, apartments } });
    expectError(res, 409, /apartments\[4320\]/);
    expect(await count(target)).toBe(0);
  });

  it('5,000 items with item 4,321 colliding with an apartment already in the building: 409, nothing created', async () => {
    const target = await freshBuilding();
    await createApartment(t, a.key, target, { name: 'Unit 4321' });
    const res = await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: a.key, body: { buildingId: target, apartments: items(5000) } });
    expectError(res, 409, /name/);
    expect(await count(target)).toBe(1);
  });

  it('5,000 items with one invalid field in item 4,321: 422 naming it, nothing created', async () => {
    const target = await freshBuilding();
    const apartments = items(5000) as Array<Record<string, unknown>>;
    apartments[4320]!.status = 'RESERVED';
    const res = await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: a.key, body: { buildingId: target, apartments } });
    expectError(res, 422, 'apartments[4320].status');
    expect(await count(target)).toBe(0);
  });

  it('15 items with the same bad apartmentData field: one 422 part per item and field, naming what the field takes', async () => {
    const target = await freshBuilding();
    const apartments = items(15).map((item) => ({ ...item, apartmentData: { ...item.apartmentData, balcony: 'wide', floorHeight: -1 } }));
    const res = await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: a.key, body: { buildingId: target, apartments } });
    expect(res.statusCode).toBe(422);
    const parts = Array.from({ length: 15 }, (_, i) => [
      `apartments[${i}].apartmentData.balcony must be number or null`,
      `apartments[${i}].apartmentData.floorHeight must be >= 0 or null`,
    ]).flat();
    expect(res.json().message).toBe(`Validation failed: ${parts.slice(0, 20).join('; ')}; and 10 more`);
    expect(await count(target)).toBe(0);
  });

  it('one asset id that is not the organization’s: 404, nothing created', async () => {
    const target = await freshBuilding();
    const apartments = items(10) as Array<Record<string, unknown>>;
    apartments[7]!.assetsIds = ['01890000-0000-7000-8000-0000000000aa'];
    expectError(await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: a.key, body: { buildingId: target, apartments } }), 404, /Asset/);
    expect(await count(target)).toBe(0);
  });

  it('more than 5,000 items is 422 naming apartments', async () => {
    await expect422(t, { method: 'POST', url: '/api/v1/apartment/bulk', key: a.key }, { buildingId, apartments: items(5001, 'Over') }, 'apartments');
  });

  it('accepts bodies over 1 MB up to 8 MB; larger is 413', async () => {
    const target = await freshBuilding();
    const big = items(5000).map((a) => ({ ...a, description: 'd'.repeat(300) }));
    const ok = await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: a.key, body: { buildingId: target, apartments: big } });
    expect(ok.statusCode, ok.body.slice(0, 300)).toBe(201);
    const huge = items(10).map((x) => ({ ...x, description: 'd'.repeat(19_000) }));
    const body = { buildingId: target, apartments: Array.from({ length: 460 }, (_, i) => ({ ...huge[i % 10]!, name: `Huge ${i}` })) };
    expectError(await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: a.key, body }), 413);
  });

  it('400/422 for bad bodies', async () => {
    const target = { method: 'POST' as const, url: '/api/v1/apartment/bulk', key: a.key };
    await expectUnreadableBodies(t, target);
    await expect422(t, target, { apartments: [{ name: 'x' }] }, 'buildingId');
    await expect422(t, target, { buildingId }, 'apartments');
    await expect422(t, target, { buildingId, apartments: [] }, 'apartments');
    await expect422(t, target, { buildingId, apartments: [{ name: 'ok' }, {}] }, 'apartments[1].name');
    await expect422(t, target, { buildingId, apartments: [{ name: 'ok', floorCount: 1 }] }, 'apartments[0].floorCount');
    await expect422(t, target, { buildingId, apartments: [{ name: 'n'.repeat(201) }] }, 'apartments[0].name');
    await expect422(t, target, { buildingId, apartments: [{ name: 'ok', apartmentType: 'YACHT' }] }, 'apartments[0].apartmentType');
    await expect422(t, target, { buildingId, apartments: [{ name: 'ok' }], extra: 1 }, 'extra');
  });

  it('404 for another organization’s building; 401 without key; 403 read-only', async () => {
    const body = { buildingId, apartments: [{ name: 'Intruder' }] };
    expectError(await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: b.key, body }), 404, `Building with id ${buildingId} not found`);
    expectError(await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', body }), 401);
    expectError(await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: readOnly, body }), 403);
    expect(await count(buildingId)).toBe(5000);
  });
});
