import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { expect422, expectError, expectUnreadableBodies } from '../helpers/bad-input.js';
import { createApartment, createBuilding, createEstate } from '../helpers/factories.js';

const MISSING = '01890000-0000-7000-8000-000000000000';

describe('sync by externalId', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;
  let estateId: string;

  const freshBuilding = async (org = a) => (await createBuilding(t, org.key, (await createEstate(t, org.key)).id)).id;
  const upsert = (body: unknown, key = a.key, headers?: Record<string, string>) =>
    t.request({ method: 'POST', url: '/api/v1/apartment/upsert', key, body, ...(headers ? { headers } : {}) });
  const bulkPatch = (body: unknown, key = a.key) => t.request({ method: 'PATCH', url: '/api/v1/apartment/bulk', key, body });
  const get = async (id: string, key = a.key) => (await t.request({ method: 'GET', url: `/api/v1/apartment/${id}`, key })).json();
  const inBuilding = async (buildingId: string, key = a.key) =>
    (await t.request({ method: 'GET', url: '/api/v1/apartment', key, query: { buildingId } })).json().items as Array<Record<string, unknown>>;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Sync A');
    b = await t.createOrg('Sync B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
    estateId = (await createEstate(t, a.key)).id;
  });
  afterAll(async () => t?.close());

  describe('externalId is unique per organization', () => {
    it('create, PATCH and bulk create that would repeat an externalId are 409 naming it; another organization may use it', async () => {
      const buildingId = await createBuilding(t, a.key, estateId).then((x) => x.id);
      const first = await createApartment(t, a.key, buildingId, { name: 'U1', externalId: 'erp-1' });
      const clash = await t.request({ method: 'POST', url: '/api/v1/apartment', key: a.key, body: { name: 'U2', buildingId, externalId: 'erp-1' } });
      expectError(clash, 409, /externalId "erp-1"/);
      // Compared exactly: case and spaces make another id.
      await createApartment(t, a.key, buildingId, { name: 'U3', externalId: 'ERP-1' });
      const second = await createApartment(t, a.key, buildingId, { name: 'U4', externalId: 'erp-2' });
      expectError(
        await t.request({ method: 'PATCH', url: `/api/v1/apartment/${second.id}`, key: a.key, body: { externalId: 'erp-1' } }),
        409,
        /externalId "erp-1"/,
      );
      // Its own value again is no clash.
      const same = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${first.id}`, key: a.key, body: { externalId: 'erp-1', isPromoted: true } });
      expect(same.statusCode, same.body).toBe(200);
      const bulkCreate = (second: string) =>
        t.request({
          method: 'POST',
          url: '/api/v1/apartment/bulk',
          key: a.key,
          body: {
            buildingId,
            apartments: [
              { name: 'B1', externalId: 'erp-9' },
              { name: 'B2', externalId: second },
            ],
          },
        });
      expectError(await bulkCreate('erp-1'), 409, /apartments\[1\]\.externalId "erp-1"/);
      const repeated = await bulkCreate('erp-9');
      expectError(repeated, 409, /apartments\[1\]\.externalId "erp-9" repeats apartments\[0\]/);
      expect((await inBuilding(buildingId)).map((x) => x.name)).toEqual(['U1', 'U3', 'U4']);
      // Organization B may use the same value.
      const other = await createApartment(t, b.key, await freshBuilding(b), { name: 'U1', externalId: 'erp-1' });
      expect(other.externalId).toBe('erp-1');
      // null clears it, and several apartments may have none.
      expect(
        (await t.request({ method: 'PATCH', url: `/api/v1/apartment/${second.id}`, key: a.key, body: { externalId: null } })).json().externalId,
      ).toBeNull();
    });

    it('externalId is 1 to 255 characters', async () => {
      const buildingId = await freshBuilding();
      const target = { method: 'POST' as const, url: '/api/v1/apartment', key: a.key };
      await expect422(t, target, { name: 'E', buildingId, externalId: '' }, 'externalId');
      await expect422(t, target, { name: 'E', buildingId, externalId: 'x'.repeat(256) }, 'externalId');
      const longest = await createApartment(t, a.key, buildingId, { name: 'E', externalId: 'x'.repeat(255) });
      expect(longest.externalId).toHaveLength(255);
    });
  });

  describe('POST /api/v1/apartment/upsert', () => {
    it('creates what is new, updates what changed, stamps what did not, in request order', async () => {
      const buildingId = await freshBuilding();
      const before = Date.now();
      const created = await upsert({
        buildingId,
        apartments: [
          { externalId: 'u-1', name: 'A 1', priceCents: 100_000, apartmentData: { rooms: 2, area: 40 } },
          { externalId: 'u-2', name: 'A 2', priceCents: 200_000, lastSynchronizedAt: '2024-01-01T00:00:00.000Z' },
        ],
      });
      expect(created.statusCode, created.body).toBe(200);
      const first = created.json();
      expect(first).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
      expect(first.items.map((i: { externalId: string; result: string }) => [i.externalId, i.result])).toEqual([
        ['u-1', 'created'],
        ['u-2', 'created'],
      ]);
      const [one, two] = first.items as Array<{ id: string }>;
      const stored1 = await get(one!.id);
      expect(stored1).toMatchObject({ name: 'A 1', externalId: 'u-1', buildingId, priceCents: 100_000, apartmentData: { rooms: 2, area: 40 } });
      expect(Date.parse(stored1.lastSynchronizedAt)).toBeGreaterThanOrEqual(before - 1000);
      const stored2 = await get(two!.id);
      expect(stored2.lastSynchronizedAt).toBe('2024-01-01T00:00:00.000Z');

      const second = await upsert({
        buildingId,
        apartments: [
          { externalId: 'u-3', name: 'A 3' },
          { externalId: 'u-2', priceCents: 200_000 },
          { externalId: 'u-1', priceCents: 110_000, apartmentData: { area: 41, rooms: null } },
        ],
      });
      expect(second.statusCode, second.body).toBe(200);
      expect(second.json()).toMatchObject({
        created: 1,
        updated: 1,
        unchanged: 1,
        items: [
          { externalId: 'u-3', result: 'created' },
          { externalId: 'u-2', id: two!.id, result: 'unchanged' },
          { externalId: 'u-1', id: one!.id, result: 'updated' },
        ],
      });
      const after1 = await get(one!.id);
      expect(after1.priceCents).toBe(110_000);
      expect(after1.apartmentData).toEqual({ area: 41 });
      expect(after1.priceChangeHistory).toEqual([expect.objectContaining({ priceCentsBefore: 100_000, priceCentsAfter: 110_000 })]);
      const after2 = await get(two!.id);
      // Unchanged: only the stamp moves (the call's time); updatedAt stays.
      expect(after2.lastSynchronizedAt).not.toBe('2024-01-01T00:00:00.000Z');
      expect(after2.updatedAt).toBe(stored2.updatedAt);
      expect(after2.priceChangeHistory).toEqual([]);
    });

    it('a matched apartment elsewhere moves into buildingId (estate too); moving is a change', async () => {
      const from = await freshBuilding();
      const to = await createBuilding(t, a.key, (await createEstate(t, a.key)).id);
      const apt = await createApartment(t, a.key, from, { name: 'Mover', externalId: 'move-1' });
      const res = await upsert({ buildingId: to.id, apartments: [{ externalId: 'move-1' }] });
      expect(res.json()).toMatchObject({ updated: 1, items: [{ id: apt.id, result: 'updated' }] });
      expect(await get(apt.id)).toMatchObject({ buildingId: to.id, estateId: to.estateId, name: 'Mover' });
    });

    it('another organization’s externalId is never matched: a new apartment is created in the caller’s organization', async () => {
      const theirs = await createApartment(t, b.key, await freshBuilding(b), { name: 'Theirs', externalId: 'shared-1', priceCents: 5 });
      const buildingId = await freshBuilding();
      const res = await upsert({ buildingId, apartments: [{ externalId: 'shared-1', name: 'Ours', priceCents: 7 }] });
      expect(res.json()).toMatchObject({ created: 1, items: [{ result: 'created' }] });
      expect(res.json().items[0].id).not.toBe(theirs.id);
      expect(await get(theirs.id, b.key)).toMatchObject({ name: 'Theirs', priceCents: 5 });
      expect(await get(res.json().items[0].id)).toMatchObject({ name: 'Ours', priceCents: 7, buildingId });
    });

    it('all or nothing: one bad item rejects the call and changes nothing', async () => {
      const buildingId = await freshBuilding();
      const seeded = await upsert({ buildingId, apartments: [{ externalId: 'k-1', name: 'K 1', priceCents: 1 }] });
      const id = seeded.json().items[0].id as string;
      const snapshot = await inBuilding(buildingId);
      const many = (n: number) => Array.from({ length: n }, (_, i) => ({ externalId: `k-${i + 1}`, name: `K ${i + 1}`, priceCents: 2 }));

      const invalid = many(50) as Array<Record<string, unknown>>;
      invalid[42]!.status = 'RESERVED';
      expectError(await upsert({ buildingId, apartments: invalid }), 422, 'apartments[42].status');

      const nameless = many(50) as Array<Record<string, unknown>>;
      nameless[30] = { externalId: 'k-31', priceCents: 2 };
      expectError(await upsert({ buildingId, apartments: nameless }), 422, /apartments\[30\]\.name is required when the apartment is new/);

      const repeated = many(50);
      repeated[44]!.externalId = 'k-3';
      expectError(await upsert({ buildingId, apartments: repeated }), 409, /apartments\[44\]\.externalId "k-3" repeats apartments\[2\]\.externalId/);

      const sameName = many(50);
      sameName[20]!.name = ' k 4 ';
      expectError(await upsert({ buildingId, apartments: sameName }), 409, /apartments\[20\]\.name/);

      const asset = many(50) as Array<Record<string, unknown>>;
      asset[10]!.assetsIds = [MISSING];
      expectError(await upsert({ buildingId, apartments: asset }), 404, /Asset/);

      expectError(await upsert({ buildingId: MISSING, apartments: many(2) }), 404, /Building/);
      expect(await inBuilding(buildingId)).toEqual(snapshot);
      expect((await get(id)).priceCents).toBe(1);
    });

    it('bad bodies: 400/422 naming the field; limits of 1 to 5,000 items and 8 MB', async () => {
      const buildingId = await freshBuilding();
      const target = { method: 'POST' as const, url: '/api/v1/apartment/upsert', key: a.key };
      await expectUnreadableBodies(t, target);
      await expect422(t, target, { apartments: [{ externalId: 'x', name: 'x' }] }, 'buildingId');
      await expect422(t, target, { buildingId, apartments: [] }, 'apartments');
      await expect422(t, target, { buildingId, apartments: [{ name: 'no key' }] }, 'apartments[0].externalId');
      await expect422(t, target, { buildingId, apartments: [{ externalId: '', name: 'x' }] }, 'apartments[0].externalId');
      await expect422(t, target, { buildingId, apartments: [{ externalId: 'x', name: 'x', bogus: 1 }] }, 'bogus');
      const over = Array.from({ length: 5001 }, (_, i) => ({ externalId: `o-${i}`, name: `O ${i}` }));
      await expect422(t, target, { buildingId, apartments: over }, 'apartments');
      const huge = [{ externalId: 'h', name: 'h', description: 'x'.repeat(20_000) }];
      const tooLarge = await upsert({ buildingId, apartments: Array.from({ length: 450 }, (_, i) => ({ ...huge[0], externalId: `h-${i}`, name: `H ${i}` })) });
      expectError(tooLarge, 413);
      expect(await inBuilding(buildingId)).toEqual([]);
    });

    it('5,000 items: created, then matched with 10% of prices changed', async () => {
      const buildingId = await freshBuilding();
      const items = Array.from({ length: 5000 }, (_, i) => ({
        externalId: `big-${i}`,
        name: `Big ${i}`,
        priceCents: 1000 + i,
        apartmentData: { rooms: 1 + (i % 4) },
      }));
      const first = await upsert({ buildingId, apartments: items });
      expect(first.statusCode, first.body.slice(0, 300)).toBe(200);
      expect(first.json()).toMatchObject({ created: 5000, updated: 0, unchanged: 0 });
      const again = items.map((item, i) => (i % 10 === 0 ? { ...item, priceCents: item.priceCents + 1 } : item));
      const second = await upsert({ buildingId, apartments: again });
      expect(second.json()).toMatchObject({ created: 0, updated: 500, unchanged: 4500 });
      const listed = await inBuilding(buildingId);
      expect(listed).toHaveLength(5000);
      expect(listed.filter((x) => (x.priceChangeHistory as unknown[]).length === 1)).toHaveLength(500);
    });

    it('Idempotency-Key: a retry replays the first answer and runs nothing again', async () => {
      const buildingId = await freshBuilding();
      const body = { buildingId, apartments: [{ externalId: 'idem-1', name: 'Idem 1', priceCents: 10 }] };
      const headers = { 'idempotency-key': 'upsert-replay-1' };
      const first = await upsert(body, a.key, headers);
      expect(first.json()).toMatchObject({ created: 1 });
      // A change in between: a re-run would now answer "updated" or "unchanged".
      await t.request({ method: 'PATCH', url: `/api/v1/apartment/${first.json().items[0].id}`, key: a.key, body: { priceCents: 11 } });
      const retry = await upsert(body, a.key, headers);
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toEqual(first.json());
      expect((await get(first.json().items[0].id)).priceCents).toBe(11);
      expectError(await upsert({ ...body, apartments: [{ externalId: 'idem-2', name: 'Idem 2' }] }, a.key, headers), 422);
    });

    it('no key is 401, a read-only key 403, another organization’s building 404', async () => {
      const buildingId = await freshBuilding();
      const body = { buildingId, apartments: [{ externalId: 'auth-1', name: 'Auth 1' }] };
      expectError(await t.request({ method: 'POST', url: '/api/v1/apartment/upsert', body }), 401);
      expectError(await upsert(body, readOnly), 403);
      expectError(await upsert(body, b.key), 404, /Building/);
      expect(await inBuilding(buildingId)).toEqual([]);
    });
  });

  describe('PATCH /api/v1/apartment/bulk', () => {
    it('changes each apartment named by id or externalId with PATCH semantics, in one call', async () => {
      const buildingId = await freshBuilding();
      const elsewhere = await freshBuilding();
      const x = await createApartment(t, a.key, buildingId, { name: 'X', priceCents: 100, apartmentData: { rooms: 2, area: 50 } });
      const y = await createApartment(t, a.key, buildingId, { name: 'Y', externalId: 'bulk-y', status: 'ACTIVE' });
      const res = await bulkPatch({
        apartments: [
          { id: x.id, priceCents: 120, apartmentData: { rooms: null, floor: 3 } },
          { externalId: 'bulk-y', status: 'SOLD', buildingId: elsewhere, name: ' Y2 ' },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ updated: 2 });
      const gotX = await get(x.id);
      expect(gotX).toMatchObject({ priceCents: 120, apartmentData: { area: 50, floor: 3 }, name: 'X' });
      expect(gotX.apartmentData).not.toHaveProperty('rooms');
      expect(gotX.priceChangeHistory).toEqual([expect.objectContaining({ priceCentsBefore: 100, priceCentsAfter: 120 })]);
      expect(await get(y.id)).toMatchObject({ status: 'SOLD', buildingId: elsewhere, name: 'Y2', externalId: 'bulk-y' });
    });

    it('all or nothing: an unknown id or externalId is 404 naming its position; bad items 422/409; nothing changes', async () => {
      const buildingId = await freshBuilding();
      const x = await createApartment(t, a.key, buildingId, { name: 'X', priceCents: 1, externalId: 'bx' });
      const theirs = await createApartment(t, b.key, await freshBuilding(b), { name: 'T', externalId: 'bt' });
      // Each body names x first, then the item under test.
      const withX = (other: Record<string, unknown>) => ({ apartments: [{ id: x.id, priceCents: 2 }, other] });
      const attempts: Array<[unknown, number, string | RegExp]> = [
        [withX({ id: MISSING, priceCents: 2 }), 404, /apartments\[1\]\.id/],
        [withX({ id: 'not-a-uuid', priceCents: 2 }), 404, /apartments\[1\]\.id/],
        [withX({ externalId: 'nope', priceCents: 2 }), 404, /apartments\[1\]\.externalId/],
        // Another organization's apartment, by id or by externalId, is unknown.
        [withX({ id: theirs.id, priceCents: 2 }), 404, /apartments\[1\]\.id/],
        [withX({ externalId: 'bt', priceCents: 2 }), 404, /apartments\[1\]\.externalId/],
        [withX({ priceCents: 2 }), 422, /apartments\[1\] must name exactly one of id, externalId/],
        [{ apartments: [{ id: x.id, externalId: 'bx', priceCents: 2 }] }, 422, /apartments\[0\] must name exactly one/],
        [withX({ externalId: 'bx', priceCents: 3 }), 409, /apartments\[1\] names the same apartment as apartments\[0\]/],
        [{ apartments: [{ id: x.id, priceCents: 2, status: 'RESERVED' }] }, 422, 'apartments[0].status'],
        [{ apartments: [{ id: x.id, buildingId: MISSING }] }, 404, /apartments\[0\]\.buildingId/],
        [{ apartments: [{ id: x.id, assetsIds: [MISSING] }] }, 404, /Asset/],
        [{ apartments: [] }, 422, 'apartments'],
      ];
      for (const [body, status, mentions] of attempts) expectError(await bulkPatch(body), status, mentions);
      expect(await get(x.id)).toMatchObject({ priceCents: 1, priceChangeHistory: [] });
      expect(await get(theirs.id, b.key)).toMatchObject({ name: 'T' });
      await expectUnreadableBodies(t, { method: 'PATCH', url: '/api/v1/apartment/bulk', key: a.key });
      const over = Array.from({ length: 5001 }, () => ({ id: x.id }));
      await expect422(t, { method: 'PATCH', url: '/api/v1/apartment/bulk', key: a.key }, { apartments: over }, 'apartments');
    });

    it('a name clash in the building is 409 and changes nothing', async () => {
      const buildingId = await freshBuilding();
      const x = await createApartment(t, a.key, buildingId, { name: 'X', priceCents: 1 });
      await createApartment(t, a.key, buildingId, { name: 'Taken' });
      expectError(await bulkPatch({ apartments: [{ id: x.id, priceCents: 5, name: 'taken' }] }), 409, /name/);
      expect(await get(x.id)).toMatchObject({ name: 'X', priceCents: 1 });
    });

    it('no key is 401, a read-only key 403', async () => {
      const x = await createApartment(t, a.key, await freshBuilding(), { name: 'X' });
      const body = { apartments: [{ id: x.id, isPromoted: true }] };
      expectError(await t.request({ method: 'PATCH', url: '/api/v1/apartment/bulk', body }), 401);
      expectError(await bulkPatch(body, readOnly), 403);
      expect((await get(x.id)).isPromoted).toBe(false);
    });
  });
});
