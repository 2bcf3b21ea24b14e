import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { expect422, expectError, expectUnreadableBodies } from '../helpers/bad-input.js';
import { createApartment, createBuilding, createEstate } from '../helpers/factories.js';

const MISSING = '01890000-0000-7000-8000-000000000002';

/** An asset row as the assets module stores it; the foundation only needs its id and owner. */
async function seedAsset(t: TestApp, organizationId: string): Promise<string> {
  const id = newId();
  await t.db.query(
    `INSERT INTO assets (id, organization_id, name, storage_key, mime_type, size_bytes, sha256) VALUES ($1, $2, 'a.jpg', $3, 'image/jpeg', 1, 'x')`,
    [id, organizationId, `seed/${id}`],
  );
  return id;
}

const FULL = {
  isPromoted: true,
  description: 'Corner unit',
  status: 'BOOKED',
  floorPlanUrls: ['https://cdn.example.com/fp.png'],
  floorPlanPreviewUrls: ['https://cdn.example.com/fp-s.png'],
  floorPlan3dPreviewUrls: ['https://cdn.example.com/fp-3d.png'],
  priceCents: 45_000_000,
  isPriceNet: true,
  apartmentType: 'COMMERCIAL',
  apartmentData: {
    area: 54.5,
    areaUnit: 'm2',
    terrace: 4,
    terraces: [4, 2.5],
    balcony: 3,
    balconies: [3],
    bedrooms: 2,
    rooms: 3,
    bathrooms: 1,
    floor: 4,
    garage: 1,
    storage: 1,
    category: 'premium',
    priceAsterisk: 'incl. VAT',
    exposures: ['N', 'SE'],
    floorHeight: 2.8,
    hasDen: true,
  },
  showPrice: false,
  currency: 'USD',
  externalId: 'crm-42',
  lastSynchronizedAt: '2024-03-01T12:00:00.000Z',
  source: 'crm',
  virtualTourUrl: 'https://tour.example.com/42',
  panoramaId: 'pano-1',
  preferredAngles: [{ navigatorId: 'nav-1', angle: 90, source: 'manual' }],
  externalUrl: 'https://example.com/apartment/42',
};

describe('apartments', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;
  let estateId: string;
  let buildingId: string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Apartments A');
    b = await t.createOrg('Apartments B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
    estateId = (await createEstate(t, a.key)).id;
    buildingId = (await createBuilding(t, a.key, estateId, { name: 'Main' })).id;
  });
  afterAll(async () => t?.close());

  describe('POST /api/v1/apartment', () => {
    it('applies the defaults and embeds the building', async () => {
      const res = await t.request({ method: 'POST', url: '/api/v1/apartment', key: a.key, body: { name: ' A1 ', buildingId } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        name: 'A1',
        buildingId,
        estateId,
        status: 'ACTIVE',
        apartmentType: 'RESIDENTIAL',
        isPromoted: false,
        showPrice: true,
        isPriceNet: false,
        assetsIds: [],
        apartmentData: {},
        priceChangeHistory: [],
        priceCents: null,
        building: { id: buildingId, name: 'Main', estateId },
      });
    });

    it('stores and returns every field of the spec, including all of apartmentData', async () => {
      const assetId = await seedAsset(t, a.id);
      const res = await t.request({ method: 'POST', url: '/api/v1/apartment', key: a.key, body: { name: 'Full', buildingId, ...FULL, assetsIds: [assetId] } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ ...FULL, assetsIds: [assetId] });
      const read = await t.request({ method: 'GET', url: `/api/v1/apartment/${res.json().id}`, key: a.key });
      expect(read.json()).toEqual(res.json());
    });

    it('answers what GET answers, byte for byte, where the database normalises what was sent', async () => {
      const assetId = await seedAsset(t, a.id);
      const body = {
        name: 'Normalised',
        buildingId: buildingId.toUpperCase(),
        lastSynchronizedAt: '2024-03-01T14:00:00.123456+02:00',
        assetsIds: [assetId.toUpperCase(), assetId],
        apartmentData: { rooms: 3, area: 1e-7, exposures: ['S'], floor: -0 },
        preferredAngles: [{ source: 'auto', angle: 12.5, navigatorId: 'nav-2' }],
      };
      const res = await t.request({ method: 'POST', url: '/api/v1/apartment', key: a.key, body });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ buildingId, lastSynchronizedAt: '2024-03-01T12:00:00.123Z', assetsIds: [assetId] });
      const read = await t.request({ method: 'GET', url: `/api/v1/apartment/${res.json().id}`, key: a.key });
      expect(read.body).toBe(res.body);
    });

    it('embeds the building as it is when the apartment is created, after the building changed', async () => {
      const building = await createBuilding(t, a.key, estateId, { name: 'Before' });
      const first = await t.request({ method: 'POST', url: '/api/v1/apartment', key: a.key, body: { name: 'First', buildingId: building.id } });
      expect(first.json().building.name).toBe('Before');
      const patched = await t.request({
        method: 'PATCH',
        url: `/api/v1/building/${building.id}`,
        key: a.key,
        body: { name: 'After', features: [{ name: 'Lift', type: 'elevator' }] },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      const second = await t.request({ method: 'POST', url: '/api/v1/apartment', key: a.key, body: { name: 'Second', buildingId: building.id } });
      expect(second.statusCode, second.body).toBe(201);
      expect(second.json().building).toEqual(patched.json());
      // Changed behind the service's back (by hand, another instance): the statement sees the new row version.
      await t.db.query(`UPDATE buildings SET description = 'Changed by hand' WHERE id = $1`, [building.id]);
      const third = await t.request({ method: 'POST', url: '/api/v1/apartment', key: a.key, body: { name: 'Third', buildingId: building.id } });
      expect(third.json().building.description).toBe('Changed by hand');
      const read = await t.request({ method: 'GET', url: `/api/v1/apartment/${third.json().id}`, key: a.key });
      expect(read.body).toBe(third.body);
    });

    it('409 for a duplicate name within the building (trimmed, case-insensitive)', async () => {
      await createApartment(t, a.key, buildingId, { name: 'Dup 1' });
      expectError(await t.request({ method: 'POST', url: '/api/v1/apartment', key: a.key, body: { name: ' DUP 1 ', buildingId } }), 409, /name/);
      const other = await createBuilding(t, a.key, estateId);
      expect((await t.request({ method: 'POST', url: '/api/v1/apartment', key: a.key, body: { name: 'Dup 1', buildingId: other.id } })).statusCode).toBe(201);
    });

    it('404 for a missing or foreign building and for assets that are not the organization’s', async () => {
      expectError(
        await t.request({ method: 'POST', url: '/api/v1/apartment', key: a.key, body: { name: 'X', buildingId: MISSING } }),
        404,
        `Building with id ${MISSING} not found`,
      );
      expectError(
        await t.request({ method: 'POST', url: '/api/v1/apartment', key: b.key, body: { name: 'X', buildingId } }),
        404,
        `Building with id ${buildingId} not found`,
      );
      const foreignAsset = await seedAsset(t, b.id);
      expectError(
        await t.request({ method: 'POST', url: '/api/v1/apartment', key: a.key, body: { name: 'X', buildingId, assetsIds: [foreignAsset] } }),
        404,
        /Asset/,
      );
    });

    it('400/422 for bad bodies, naming the field', async () => {
      const target = { method: 'POST' as const, url: '/api/v1/apartment', key: a.key };
      await expectUnreadableBodies(t, target);
      await expect422(t, target, { buildingId }, 'name');
      await expect422(t, target, { name: 'N' }, 'buildingId');
      await expect422(t, target, { name: 'N', buildingId, sqm: 3 }, 'sqm');
      await expect422(t, target, { name: 'N', buildingId, priceCents: '100' }, 'priceCents');
      await expect422(t, target, { name: 'N', buildingId, priceCents: -1 }, 'priceCents');
      await expect422(t, target, { name: 'n'.repeat(201), buildingId }, 'name');
      await expect422(t, target, { name: 'N', buildingId, status: 'RESERVED' }, 'status');
      await expect422(t, target, { name: 'N', buildingId, apartmentType: 'CASTLE' }, 'apartmentType');
      await expect422(t, target, { name: 'N', buildingId, apartmentData: { areaUnit: 'acre' } }, 'apartmentData.areaUnit');
      await expect422(t, target, { name: 'N', buildingId, apartmentData: { exposures: ['UP'] } }, 'apartmentData.exposures[0]');
      await expect422(t, target, { name: 'N', buildingId, apartmentData: { colour: 'red' } }, 'apartmentData.colour');
      await expect422(t, target, { name: 'N', buildingId, preferredAngles: [{ navigatorId: 'n', angle: 1, source: 'robot' }] }, 'preferredAngles[0].source');
      await expect422(t, target, { name: 'N', buildingId, assetsIds: 'one' }, 'assetsIds');
    });

    it('401 without a key, 403 read-only', async () => {
      expectError(await t.request({ method: 'POST', url: '/api/v1/apartment', body: { name: 'N', buildingId } }), 401);
      expectError(await t.request({ method: 'POST', url: '/api/v1/apartment', key: readOnly, body: { name: 'N', buildingId } }), 403);
    });
  });

  describe('GET and PATCH /api/v1/apartment/{id}', () => {
    it('404 for missing, malformed and foreign ids; 401 without key', async () => {
      const apt = await createApartment(t, a.key, buildingId);
      expectError(await t.request({ method: 'GET', url: `/api/v1/apartment/${MISSING}`, key: a.key }), 404, `Apartment with id ${MISSING} not found`);
      expectError(await t.request({ method: 'GET', url: '/api/v1/apartment/zzz', key: a.key }), 404);
      expectError(await t.request({ method: 'GET', url: `/api/v1/apartment/${apt.id}`, key: b.key }), 404, `Apartment with id ${apt.id} not found`);
      expectError(await t.request({ method: 'PATCH', url: `/api/v1/apartment/${apt.id}`, key: b.key, body: { isPromoted: true } }), 404);
      expectError(await t.request({ method: 'GET', url: `/api/v1/apartment/${apt.id}` }), 401);
    });

    it('GET-modify-PATCH round trip with every field present', async () => {
      // externalId is unique in the organization: FULL's own is taken by the create test above.
      const full = { ...FULL, externalId: 'crm-43' };
      const apt = await createApartment(t, a.key, buildingId, full);
      const got = (await t.request({ method: 'GET', url: `/api/v1/apartment/${apt.id}`, key: a.key })).json();
      got.status = 'SOLD';
      const res = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${apt.id}`, key: a.key, body: got });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ ...full, status: 'SOLD' });
    });

    it('records priceChangeHistory when priceCents changes', async () => {
      const apt = await createApartment(t, a.key, buildingId, { priceCents: 100_00 });
      const url = `/api/v1/apartment/${apt.id}`;
      await t.request({ method: 'PATCH', url, key: a.key, body: { priceCents: 120_00 } });
      await t.request({ method: 'PATCH', url, key: a.key, body: { priceCents: 120_00, description: 'same price' } });
      const res = await t.request({ method: 'PATCH', url, key: a.key, body: { priceCents: 110_00 } });
      const history = res.json().priceChangeHistory;
      expect(history).toEqual([
        { date: expect.stringMatching(/Z$/), priceCentsBefore: 100_00, priceCentsAfter: 120_00 },
        { date: expect.stringMatching(/Z$/), priceCentsBefore: 120_00, priceCentsAfter: 110_00 },
      ]);
      // Sent back by a client, the history is ignored, not overwritten.
      const back = await t.request({ method: 'PATCH', url, key: a.key, body: { priceChangeHistory: [] } });
      expect(back.json().priceChangeHistory).toEqual(history);
    });

    it('assetsIds is a complete replacement; an unknown asset id is 404 and changes nothing', async () => {
      const [x, y, z] = [await seedAsset(t, a.id), await seedAsset(t, a.id), await seedAsset(t, a.id)];
      const apt = await createApartment(t, a.key, buildingId, { assetsIds: [x, y] });
      const url = `/api/v1/apartment/${apt.id}`;
      const replaced = await t.request({ method: 'PATCH', url, key: a.key, body: { assetsIds: [z, x] } });
      expect(replaced.json().assetsIds).toEqual([z, x]);
      expectError(await t.request({ method: 'PATCH', url, key: a.key, body: { assetsIds: [z, MISSING] } }), 404, `Asset with id ${MISSING} not found`);
      expect((await t.request({ method: 'GET', url, key: a.key })).json().assetsIds).toEqual([z, x]);
      const cleared = await t.request({ method: 'PATCH', url, key: a.key, body: { assetsIds: [] } });
      expect(cleared.json().assetsIds).toEqual([]);
    });

    it('merges apartmentData; null removes a key', async () => {
      const apt = await createApartment(t, a.key, buildingId, { apartmentData: { area: 50, rooms: 2 } });
      const res = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${apt.id}`, key: a.key, body: { apartmentData: { rooms: null, floor: 3 } } });
      expect(res.json().apartmentData).toEqual({ area: 50, floor: 3 });
    });

    it('moves to another building of the organization; 404 for a foreign one; 409 on a name clash there', async () => {
      const apt = await createApartment(t, a.key, buildingId, { name: 'Mover' });
      const otherEstate = await createEstate(t, a.key);
      const target = await createBuilding(t, a.key, otherEstate.id);
      const res = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${apt.id}`, key: a.key, body: { buildingId: target.id } });
      expect(res.json()).toMatchObject({ buildingId: target.id, estateId: otherEstate.id, building: { id: target.id } });
      const foreignBuilding = await createBuilding(t, b.key, (await createEstate(t, b.key)).id);
      expectError(await t.request({ method: 'PATCH', url: `/api/v1/apartment/${apt.id}`, key: a.key, body: { buildingId: foreignBuilding.id } }), 404);
      // A new "Mover" in the first building cannot follow the first one into the target building.
      const second = await createApartment(t, a.key, buildingId, { name: 'MOVER' });
      expectError(await t.request({ method: 'PATCH', url: `/api/v1/apartment/${second.id}`, key: a.key, body: { buildingId: target.id } }), 409, /name/);
      expect((await t.request({ method: 'GET', url: `/api/v1/apartment/${second.id}`, key: a.key })).json().buildingId).toBe(buildingId);
    });

    it('400/422 for bad PATCH bodies; 403 read-only', async () => {
      const apt = await createApartment(t, a.key, buildingId);
      const target = { method: 'PATCH' as const, url: `/api/v1/apartment/${apt.id}`, key: a.key };
      await expectUnreadableBodies(t, target);
      await expect422(t, target, { status: 'GONE' }, 'status');
      await expect422(t, target, { isPromoted: 'yes' }, 'isPromoted');
      await expect422(t, target, { description: 'd'.repeat(20_001) }, 'description');
      await expect422(t, target, { wings: 2 }, 'wings');
      await expect422(t, target, { currency: 'dollars' }, 'currency');
      await expect422(t, target, { virtualTourUrl: 'javascript:alert(1)' }, 'virtualTourUrl');
      await expect422(t, target, { floorPlanUrls: ['https://ok.example.com/a.png', 'data:text/html,x'] }, 'floorPlanUrls[1]');
      // Date-times PostgreSQL or JavaScript cannot hold are refused as 422, never a 5xx.
      for (const value of [
        '0000-01-01T00:00:00Z',
        '9999-12-31T23:59:60Z',
        '9999-12-31T23:59:59-14:00',
        '2023-02-29T10:00:00Z',
        '2024-01-01T00:00:00-23:59',
        '2024-01-01',
      ]) {
        await expect422(t, target, { lastSynchronizedAt: value }, 'lastSynchronizedAt');
      }
      const offset = await t.request({ ...target, body: { lastSynchronizedAt: '2024-02-29T23:30:00.5+05:30' } });
      expect(offset.json().lastSynchronizedAt).toBe('2024-02-29T18:00:00.500Z');
      expectError(await t.request({ ...target, key: readOnly, body: { isPromoted: true } }), 403);
    });
  });

  describe('GET /api/v1/apartment', () => {
    let c: TestOrg;
    let e1: string;
    let b1: string;
    let b2: string;
    beforeAll(async () => {
      c = await t.createOrg('Apartment lister');
      e1 = (await createEstate(t, c.key)).id;
      const e2 = (await createEstate(t, c.key)).id;
      b1 = (await createBuilding(t, c.key, e1)).id;
      b2 = (await createBuilding(t, c.key, e2)).id;
      for (let i = 0; i < 3; i++) await createApartment(t, c.key, b1, { name: `B1-${i}` });
      for (let i = 0; i < 2; i++) await createApartment(t, c.key, b2, { name: `B2-${i}` });
    });

    it('returns {count, items} with every match, oldest first', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/apartment', key: c.key });
      expect(res.statusCode).toBe(200);
      expect(res.json().count).toBe(5);
      expect(res.json().items.map((x: { name: string }) => x.name)).toEqual(['B1-0', 'B1-1', 'B1-2', 'B2-0', 'B2-1']);
      expect(res.json().items[0].building.id).toBe(b1);
    });

    it('filters by buildingId, estateId and the caller’s organizationId; pages with offset/limit', async () => {
      const byBuilding = (await t.request({ method: 'GET', url: '/api/v1/apartment', key: c.key, query: { buildingId: b2 } })).json();
      expect(byBuilding.count).toBe(2);
      const byEstate = (await t.request({ method: 'GET', url: '/api/v1/apartment', key: c.key, query: { estateId: e1 } })).json();
      expect(byEstate.items.map((x: { name: string }) => x.name)).toEqual(['B1-0', 'B1-1', 'B1-2']);
      const byOrg = (await t.request({ method: 'GET', url: '/api/v1/apartment', key: c.key, query: { organizationId: c.id } })).json();
      expect(byOrg.count).toBe(5);
      const page = (await t.request({ method: 'GET', url: '/api/v1/apartment', key: c.key, query: { offset: '1', limit: '2' } })).json();
      expect(page.count).toBe(5);
      expect(page.items.map((x: { name: string }) => x.name)).toEqual(['B1-1', 'B1-2']);
    });

    it('another organization sees none of them, even when naming the building; 403 for a foreign organizationId', async () => {
      const res = (await t.request({ method: 'GET', url: '/api/v1/apartment', key: a.key, query: { buildingId: b1 } })).json();
      expect(res).toEqual({ count: 0, items: [] });
      expectError(await t.request({ method: 'GET', url: '/api/v1/apartment', key: a.key, query: { organizationId: c.id } }), 403, /organizationId/);
    });

    it('400 for query parameters of the wrong type; 401 without a key', async () => {
      expectError(await t.request({ method: 'GET', url: '/api/v1/apartment?limit=abc', key: c.key }), 400, /limit/);
      expectError(await t.request({ method: 'GET', url: '/api/v1/apartment?offset=x', key: c.key }), 400, /offset/);
      expectError(await t.request({ method: 'GET', url: '/api/v1/apartment' }), 401);
    });
  });
});
