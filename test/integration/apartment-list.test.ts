import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { expectError } from '../helpers/bad-input.js';
import { createApartment, createBuilding, createEstate } from '../helpers/factories.js';

/** GET /api/v1/apartment: filters, sorts and paging headers (the basic list is in apartments.test.ts). */
describe('apartment list: filters, sorts, paging headers', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let b1: string;
  let b2: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { CORS_ORIGINS: 'https://crm.example.com' } });
    a = await t.createOrg('List A');
    b = await t.createOrg('List B');
    const estate = (await createEstate(t, a.key)).id;
    b1 = (await createBuilding(t, a.key, estate, { name: 'One' })).id;
    b2 = (await createBuilding(t, a.key, estate, { name: 'Two' })).id;
    // Created one by one, in this order: createdAt order is this order.
    await createApartment(t, a.key, b1, {
      name: 'A 1.01',
      priceCents: 40_000_000,
      externalId: 'ERP-1',
      apartmentData: { rooms: 2, floor: 1 },
    });
    await createApartment(t, a.key, b1, {
      name: 'a 1.02',
      status: 'BOOKED',
      priceCents: 55_000_000,
      externalId: 'ERP-2',
      apartmentData: { rooms: 3, floor: 1 },
    });
    await createApartment(t, a.key, b1, { name: 'B 2.01', status: 'SOLD', priceCents: 40_000_000, apartmentData: { rooms: 3, floor: 2 } });
    await createApartment(t, a.key, b1, { name: 'Garage 7', apartmentType: 'PARKING', apartmentData: { floor: -1 } });
    await createApartment(t, a.key, b1, { name: 'Shop 100%_off', apartmentType: 'COMMERCIAL', priceCents: 90_000_000, apartmentData: { floor: 0 } });
    await createApartment(t, a.key, b2, { name: 'C 3.01', status: 'HIDDEN', priceCents: 30_000_000, apartmentData: { rooms: 4, floor: 3 } });
  });
  afterAll(async () => t?.close());

  const list = (query: Record<string, string>, key = a.key) => t.request({ method: 'GET', url: '/api/v1/apartment', key, query });
  const names = async (query: Record<string, string>) => {
    const res = await list(query);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { count: number; items: Array<{ name: string }> };
    expect(res.headers['x-total-count']).toBe(String(body.count));
    return body.items.map((x) => x.name);
  };

  it('filters by status and apartmentType, one value or several comma-separated', async () => {
    expect(await names({ status: 'ACTIVE' })).toEqual(['A 1.01', 'Garage 7', 'Shop 100%_off']);
    expect(await names({ status: 'ACTIVE,BOOKED' })).toEqual(['A 1.01', 'a 1.02', 'Garage 7', 'Shop 100%_off']);
    expect(await names({ status: 'HIDDEN' })).toEqual(['C 3.01']);
    expect(await names({ apartmentType: 'PARKING,COMMERCIAL' })).toEqual(['Garage 7', 'Shop 100%_off']);
    expect(await names({ apartmentType: 'STORAGE' })).toEqual([]);
  });

  it('filters by price (inclusive bounds on priceCents; no price never matches)', async () => {
    expect(await names({ minPrice: '40000000' })).toEqual(['A 1.01', 'a 1.02', 'B 2.01', 'Shop 100%_off']);
    expect(await names({ maxPrice: '40000000' })).toEqual(['A 1.01', 'B 2.01', 'C 3.01']);
    expect(await names({ minPrice: '40000000', maxPrice: '55000000' })).toEqual(['A 1.01', 'a 1.02', 'B 2.01']);
    expect(await names({ minPrice: '0' })).not.toContain('Garage 7');
  });

  it('filters by rooms, floor and externalId (exact)', async () => {
    expect(await names({ rooms: '3' })).toEqual(['a 1.02', 'B 2.01']);
    expect(await names({ floor: '1' })).toEqual(['A 1.01', 'a 1.02']);
    expect(await names({ floor: '0' })).toEqual(['Shop 100%_off']);
    expect(await names({ floor: '-1' })).toEqual(['Garage 7']);
    expect(await names({ externalId: 'ERP-2' })).toEqual(['a 1.02']);
    expect(await names({ externalId: 'erp-2' })).toEqual([]);
  });

  it('q is a case-insensitive substring of the name, with % _ and \\ taken literally', async () => {
    expect(await names({ q: 'A 1.0' })).toEqual(['A 1.01', 'a 1.02']);
    expect(await names({ q: 'GARAGE' })).toEqual(['Garage 7']);
    expect(await names({ q: '%' })).toEqual(['Shop 100%_off']);
    expect(await names({ q: '_' })).toEqual(['Shop 100%_off']);
    expect(await names({ q: '0%_o' })).toEqual(['Shop 100%_off']);
    expect(await names({ q: '\\' })).toEqual([]);
    expect(await names({ q: "'; DROP TABLE apartments; --" })).toEqual([]);
    expect(await names({ q: '' })).toHaveLength(6);
  });

  it('combines filters with each other and with buildingId/estateId', async () => {
    expect(await names({ buildingId: b1, status: 'ACTIVE,HIDDEN', minPrice: '1' })).toEqual(['A 1.01', 'Shop 100%_off']);
    expect(await names({ buildingId: b2, status: 'HIDDEN' })).toEqual(['C 3.01']);
    expect(await names({ buildingId: b2, status: 'ACTIVE' })).toEqual([]);
    expect(await names({ rooms: '3', status: 'SOLD', q: 'b' })).toEqual(['B 2.01']);
  });

  it('sorts by price, name, createdAt and updatedAt, each reversible; ties by id in the same direction, no price last', async () => {
    const created = ['A 1.01', 'a 1.02', 'B 2.01', 'Garage 7', 'Shop 100%_off', 'C 3.01'];
    expect(await names({})).toEqual(created);
    expect(await names({ sort: 'createdAt' })).toEqual(created);
    expect(await names({ sort: '-createdAt' })).toEqual([...created].reverse());
    expect(await names({ sort: 'priceCents' })).toEqual(['C 3.01', 'A 1.01', 'B 2.01', 'a 1.02', 'Shop 100%_off', 'Garage 7']);
    expect(await names({ sort: '-priceCents' })).toEqual(['Shop 100%_off', 'a 1.02', 'B 2.01', 'A 1.01', 'C 3.01', 'Garage 7']);
    expect(await names({ sort: 'name' })).toEqual(['A 1.01', 'a 1.02', 'B 2.01', 'C 3.01', 'Garage 7', 'Shop 100%_off']);
    expect(await names({ sort: '-name' })).toEqual(['Shop 100%_off', 'Garage 7', 'C 3.01', 'B 2.01', 'a 1.02', 'A 1.01']);
    expect(await names({ sort: '-priceCents', status: 'ACTIVE,SOLD' })).toEqual(['Shop 100%_off', 'B 2.01', 'A 1.01', 'Garage 7']);
  });

  it('sorts by updatedAt', async () => {
    const all = (await list({})).json().items as Array<{ id: string; name: string }>;
    const byName = new Map(all.map((x) => [x.name, x.id]));
    for (const name of ['B 2.01', 'A 1.01']) {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${byName.get(name)}`, key: a.key, body: { description: `changed ${name}` } });
      expect(res.statusCode).toBe(200);
    }
    const order = ['a 1.02', 'Garage 7', 'Shop 100%_off', 'C 3.01', 'B 2.01', 'A 1.01'];
    expect(await names({ sort: 'updatedAt' })).toEqual(order);
    expect(await names({ sort: '-updatedAt' })).toEqual([...order].reverse());
  });

  it('pages a filtered, sorted list with X-Total-Count and Link', async () => {
    const first = await list({ status: 'ACTIVE,BOOKED', sort: 'name', limit: '3' });
    expect(first.json().count).toBe(4);
    expect(first.json().items.map((x: { name: string }) => x.name)).toEqual(['A 1.01', 'a 1.02', 'Garage 7']);
    expect(first.headers['x-total-count']).toBe('4');
    expect(first.headers.link).toBe('</api/v1/apartment?status=ACTIVE%2CBOOKED&sort=name&limit=3&offset=3>; rel="next"');
    const second = await t.request({ method: 'GET', url: first.headers.link!.toString().slice(1).split('>')[0]!, key: a.key });
    expect(second.json().items.map((x: { name: string }) => x.name)).toEqual(['Shop 100%_off']);
    expect(second.headers['x-total-count']).toBe('4');
    expect(second.headers.link).toBe('</api/v1/apartment?status=ACTIVE%2CBOOKED&sort=name&limit=3&offset=0>; rel="prev"');
    // Without limit the page is the rest of the list: never a next page.
    const rest = await list({ offset: '4' });
    expect(rest.json().items.map((x: { name: string }) => x.name)).toEqual(['Shop 100%_off', 'C 3.01']);
    expect(rest.headers['x-total-count']).toBe('6');
    expect(rest.headers.link).toBe('</api/v1/apartment?offset=0&limit=4>; rel="prev"');
    const whole = await list({});
    expect(whole.headers['x-total-count']).toBe('6');
    expect(whole.headers.link).toBeUndefined();
  });

  it('lets an allowed browser origin read X-Total-Count and Link', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/apartment', key: a.key, query: { limit: '1' }, headers: { origin: 'https://crm.example.com' } });
    expect(res.headers['access-control-allow-origin']).toBe('https://crm.example.com');
    const exposed = String(res.headers['access-control-expose-headers']).split(',');
    expect(exposed).toEqual(expect.arrayContaining(['x-total-count', 'link']));
  });

  it('400 naming the parameter for unknown or malformed values, never a 5xx', async () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ status: 'SOLDOUT' }, /status must be one of: ACTIVE, BOOKED, SOLD, HIDDEN/],
      [{ status: 'active' }, /status must be one of/],
      [{ status: 'ACTIVE,' }, /status must be one of/],
      [{ status: 'ACTIVE, BOOKED' }, /status must be one of/],
      [{ apartmentType: 'FLAT' }, /apartmentType must be one of: RESIDENTIAL, COMMERCIAL, PARKING, STORAGE/],
      [{ minPrice: 'abc' }, /minPrice/],
      [{ minPrice: '-1' }, /minPrice/],
      [{ maxPrice: '1.5' }, /maxPrice/],
      [{ maxPrice: '1e30' }, /maxPrice/],
      [{ rooms: 'three' }, /rooms/],
      [{ floor: '2000' }, /floor/],
      [{ externalId: '' }, /externalId/],
      [{ q: 'x'.repeat(201) }, /q must/],
      [{ sort: 'price' }, /sort must be one of: createdAt, -createdAt, updatedAt, -updatedAt, priceCents, -priceCents, name, -name/],
      [{ sort: '+name' }, /sort must be one of/],
      [{ color: 'red' }, /color is not allowed/],
      [{ minPrice: '2', maxPrice: '1' }, /minPrice \(2\) must not be greater than maxPrice \(1\)/],
    ];
    for (const [query, message] of bad) expectError(await list(query), 400, message);
    expectError(await t.request({ method: 'GET', url: '/api/v1/apartment?status=ACTIVE&status=SOLD', key: a.key }), 400, /status/);
  });

  it('another organization sees none of them, whatever it filters on', async () => {
    const queries: Array<Record<string, string>> = [
      { buildingId: b1 },
      { externalId: 'ERP-1' },
      { q: 'A' },
      { status: 'ACTIVE,BOOKED,SOLD,HIDDEN' },
      { sort: '-priceCents' },
    ];
    for (const query of queries) {
      const res = await list(query, b.key);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ count: 0, items: [] });
      expect(res.headers['x-total-count']).toBe('0');
    }
  });
});
