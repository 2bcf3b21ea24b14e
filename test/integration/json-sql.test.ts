import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apartmentsRepository } from '../../src/modules/apartments/repository.js';
import { toApartment } from '../../src/modules/apartments/service.js';
import { buildingsRepository } from '../../src/modules/buildings/repository.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createApartment, createBuilding, createEstate } from '../helpers/factories.js';

// The apartment list is JSON the database builds (src/db/json-sql.ts); a read by id and a create are one statement each. These tests hold them to the
// answer the row mapping and Fastify's serializer give for the same rows, field by field.
describe('one-statement reads and the list built in SQL equal the mapped rows', () => {
  let t: TestApp;
  let org: TestOrg;
  let apartmentId: string;
  let buildingId: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
    const estate = await createEstate(t, org.key);
    const building = await createBuilding(t, org.key, estate.id, {
      description: 'North wing',
      source: 'erp',
      features: [{ name: 'Lift', description: 'Two cabins', type: 'elevator' }],
    });
    buildingId = building.id;
    // A feature stored without a description (as older rows hold them): the answer shows null.
    await t.db.query(`UPDATE buildings SET features = features || '[{"name": "Garden", "type": "garden"}]'::jsonb WHERE id = $1`, [buildingId]);
    const apartment = await createApartment(t, org.key, buildingId, {
      description: 'Corner unit "A" \\ with\nnew lines and ünïcödé ✓',
      priceCents: 45_000_000,
      currency: 'EUR',
      externalId: 'crm-1',
      lastSynchronizedAt: '2024-03-01T12:00:00.123Z',
      floorPlan3dPreviewUrls: ['https://cdn.example.com/3d.png'],
      apartmentData: { area: 54.5, rooms: 3, exposures: ['N', 'SE'], hasDen: true },
      preferredAngles: [{ navigatorId: 'nav-1', angle: -12.5, source: 'manual' }],
    });
    apartmentId = apartment.id;
    await t.request({ method: 'PATCH', url: `/api/v1/apartment/${apartmentId}`, key: org.key, body: { priceCents: 44_000_000 } });
    await createApartment(t, org.key, buildingId, { name: 'Plain' });
  });
  afterAll(() => t?.close());

  async function mapped(id: string) {
    const row = (await apartmentsRepository.get(t.db, org.id, id))!;
    const building = (await buildingsRepository.get(t.db, org.id, row.buildingId))!;
    return toApartment(row, building);
  }

  it('GET /apartment/{id} equals the mapping of its row and building', async () => {
    const res = await t.request({ method: 'GET', url: `/api/v1/apartment/${apartmentId}`, key: org.key });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json();
    expect(body).toEqual(JSON.parse(JSON.stringify(await mapped(apartmentId))));
    expect(body.priceChangeHistory).toHaveLength(1);
    expect(body.building.features).toEqual([
      { name: 'Lift', description: 'Two cabins', type: 'elevator' },
      { name: 'Garden', description: null, type: 'garden' },
    ]);
    expect(body).not.toHaveProperty('organizationId');
    expect(body.building).not.toHaveProperty('organizationId');
  });

  it('the list equals the mapping of every row, in order, with its count', async () => {
    const res = await t.request({ method: 'GET', url: `/api/v1/apartment?buildingId=${buildingId}`, key: org.key });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(2);
    const ids = body.items.map((a: { id: string }) => a.id);
    expect(body.items).toEqual(JSON.parse(JSON.stringify(await Promise.all(ids.map((id: string) => mapped(id))))));
    expect(ids[0]).toBe(apartmentId);
  });

  it('a page past the end is an empty list with the full count', async () => {
    const res = await t.request({ method: 'GET', url: `/api/v1/apartment?buildingId=${buildingId}&offset=5&limit=1`, key: org.key });
    expect(res.json()).toEqual({ count: 2, items: [] });
  });
});

describe('the one-statement create', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
  });
  afterAll(() => t?.close());

  it('POST /apartment answers what a read of the new row maps to, and nothing is inserted for a missing building', async () => {
    const estate = await createEstate(t, org.key);
    const building = await createBuilding(t, org.key, estate.id, { features: [{ name: 'Lift', type: 'elevator' }] });
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/apartment',
      key: org.key,
      body: {
        buildingId: building.id.toUpperCase(),
        name: '  A-1 ',
        priceCents: 1,
        apartmentData: { rooms: 2, area: null },
        lastSynchronizedAt: '2020-01-01T00:00:00Z',
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    const row = (await apartmentsRepository.get(t.db, org.id, body.id))!;
    expect(body).toEqual(JSON.parse(JSON.stringify(toApartment(row, (await buildingsRepository.get(t.db, org.id, building.id))!))));
    expect(body).toMatchObject({
      name: 'A-1',
      estateId: estate.id,
      buildingId: building.id,
      apartmentData: { rooms: 2 },
      lastSynchronizedAt: '2020-01-01T00:00:00.000Z',
    });

    const other = await t.createOrg();
    const foreign = await t.request({ method: 'POST', url: '/api/v1/apartment', key: other.key, body: { buildingId: building.id, name: 'B-1' } });
    expect(foreign.statusCode).toBe(404);
    expect((await t.db.query('SELECT id FROM apartments WHERE organization_id = $1', [other.id])).length).toBe(0);
  });
});
