import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { createApartment, createBuilding, createEstate } from '../helpers/factories.js';

/**
 * One JSON style (issue 38): the list GET /apartment?estateId= is built by the database in one statement,
 * the single GET by Fastify's serializer; both are compact with the keys in the schema's order, so a list
 * is `{"count":n,"items":[…]}` of exactly the bytes each apartment's GET answers.
 */
describe(`apartment list and single GET are the same bytes on ${TEST_DATABASE}`, () => {
  let t: TestApp;
  let a: TestOrg;
  let estateId: string;
  const ids: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('List Bytes');
    estateId = (await createEstate(t, a.key)).id;
    const building = await createBuilding(t, a.key, estateId, {
      description: 'Line one\nline "two" \\ é 李 \u0001',
      features: [
        { name: 'Lift', type: 'elevator' },
        { name: 'Garage', description: 'Two levels', type: 'parking' },
      ],
      source: 'crm',
    });
    const full = await createApartment(t, a.key, building.id, {
      name: 'A-1 “corner”',
      description: 'Tab\there, quote " and backslash \\',
      status: 'ACTIVE',
      priceCents: 42_000_000,
      currency: 'EUR',
      showPrice: true,
      externalId: 'ext-1',
      floorPlanUrls: ['https://example.com/a.pdf', 'https://example.com/b.pdf'],
      preferredAngles: [{ navigatorId: 'n1', angle: -12.5, source: 'manual' }],
      lastSynchronizedAt: '2026-01-02T03:04:05.678+02:00',
      // Keys sent in another order than the schema's; jsonb would store them by length.
      apartmentData: {
        hasDen: true,
        exposures: ['S', 'W'],
        floorHeight: 2.75,
        priceAsterisk: 'VAT incl.',
        category: 'Penthouse',
        balconies: [3.1, 3.1],
        balcony: 6.2,
        rooms: 3,
        area: 54.5,
        areaUnit: 'm2',
        floor: -1,
        terraces: [],
        garage: 0,
      },
    });
    ids.push(full.id);
    // A price change fills priceChangeHistory.
    expect((await t.request({ method: 'PATCH', url: `/api/v1/apartment/${full.id}`, key: a.key, body: { priceCents: 41_000_000 } })).statusCode).toBe(200);
    ids.push((await createApartment(t, a.key, building.id, { name: 'B-2' })).id);
    ids.push((await createApartment(t, a.key, building.id, { name: 'C-3', apartmentData: { area: 0.001, rooms: 0 }, priceCents: null })).id);
  });
  afterAll(async () => t?.close());

  it('a list of the estate is {"count":n,"items":[…]} of the single GETs’ bytes, in the list’s order', async () => {
    const list = await t.request({ method: 'GET', url: '/api/v1/apartment', key: a.key, query: { estateId, sort: 'name' } });
    expect(list.statusCode).toBe(200);
    const singles = [];
    for (const id of ids) {
      const one = await t.request({ method: 'GET', url: `/api/v1/apartment/${id}`, key: a.key });
      expect(one.statusCode).toBe(200);
      singles.push(one.body);
    }
    expect(list.body).toBe(`{"count":3,"items":[${singles.join(',')}]}`);
    // The full one really carries every kind of field compared.
    const first = JSON.parse(singles[0]!);
    expect(first.priceChangeHistory).toHaveLength(1);
    expect(Object.keys(first.apartmentData)).toEqual([
      'area',
      'areaUnit',
      'terraces',
      'balcony',
      'balconies',
      'rooms',
      'floor',
      'garage',
      'category',
      'priceAsterisk',
      'exposures',
      'floorHeight',
      'hasDen',
    ]);
  });

  it('a window and an empty list are the same style', async () => {
    const window = await t.request({ method: 'GET', url: '/api/v1/apartment', key: a.key, query: { estateId, sort: 'name', offset: '1', limit: '1' } });
    const second = await t.request({ method: 'GET', url: `/api/v1/apartment/${ids[1]}`, key: a.key });
    expect(window.body).toBe(`{"count":3,"items":[${second.body}]}`);
    const none = await t.request({ method: 'GET', url: '/api/v1/apartment', key: a.key, query: { estateId, q: 'nothing matches this' } });
    expect(none.body).toBe('{"count":0,"items":[]}');
  });
});
