import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { expectError } from '../helpers/bad-input.js';
import { createApartment, createBuilding, createEstate } from '../helpers/factories.js';

/** GET /api/v1/inquiry and GET /api/v1/apartment/{id}/inquiries: filters, sorts and paging headers. */
describe('inquiry lists: filters, sorts, paging headers', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let e1: string;
  let apartment: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_INQUIRY_MAX: '1000' } });
    a = await t.createOrg('Inquiry list A');
    b = await t.createOrg('Inquiry list B');
    e1 = (await createEstate(t, a.key)).id;
    const e2 = (await createEstate(t, a.key)).id;
    apartment = (await createApartment(t, a.key, (await createBuilding(t, a.key, e1)).id)).id;
    const submissions: Array<[string, Record<string, unknown>]> = [
      [e1, { name: 'Jan Kowalski', email: 'jan@example.com', phoneNumber: '+48 600-100-200', info: 'A terrace, please', apartmentIds: [apartment] }],
      [e1, { name: 'anna nowak', email: 'anna@shop.example.com', phoneNumber: '(555) 123 4567' }],
      [e2, { name: 'Piotr 100%_Zielinski', email: 'piotr@example.org' }],
      [e1, { name: 'Zofia', email: 'zofia@example.com', phoneNumber: '600100999', apartmentIds: [apartment] }],
      [e2, { name: 'Bartek', email: 'bartek@jan.example.com', info: 'Anna recommended you' }],
    ];
    const ids: string[] = [];
    for (const [estate, body] of submissions) {
      const res = await t.request({ method: 'POST', url: `/api/v1/estates/${estate}/inquiries`, body });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    // Status changes in this order: updatedAt order is Jan, Bartek (never changed), then anna, Piotr, Zofia.
    for (const [i, status] of [
      [1, 'IN_PROGRESS'],
      [2, 'WON'],
      [3, 'SPAM'],
    ] as const) {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/inquiry/${ids[i]}`, key: a.key, body: { status } });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => t?.close());

  const list = (query: Record<string, string>, key = a.key, url = '/api/v1/inquiry') => t.request({ method: 'GET', url, key, query });
  const names = async (query: Record<string, string>, url = '/api/v1/inquiry') => {
    const res = await list(query, a.key, url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { count: number; items: Array<{ name: string }> };
    expect(res.headers['x-total-count']).toBe(String(body.count));
    return body.items.map((x) => x.name);
  };
  const [JAN, ANNA, PIOTR, ZOFIA, BARTEK] = ['Jan Kowalski', 'anna nowak', 'Piotr 100%_Zielinski', 'Zofia', 'Bartek'];

  it('filters by status, one or several comma-separated, and combines with estateId', async () => {
    expect(await names({})).toEqual([BARTEK, ZOFIA, PIOTR, ANNA, JAN]);
    expect(await names({ status: 'NEW' })).toEqual([BARTEK, JAN]);
    expect(await names({ status: 'NEW,IN_PROGRESS' })).toEqual([BARTEK, ANNA, JAN]);
    expect(await names({ status: 'LOST' })).toEqual([]);
    expect(await names({ estateId: e1, status: 'NEW,SPAM', sort: 'createdAt' })).toEqual([JAN, ZOFIA]);
  });

  it('q searches name and e-mail case-insensitively, and the phone’s digits for a phone-like search; never the message', async () => {
    expect(await names({ q: 'jan' })).toEqual([BARTEK, JAN]);
    expect(await names({ q: 'ANNA' })).toEqual([ANNA]);
    expect(await names({ q: 'terrace' })).toEqual([]);
    expect(await names({ q: 'example.org' })).toEqual([PIOTR]);
    expect(await names({ q: '600 100' })).toEqual([ZOFIA, JAN]);
    expect(await names({ q: '600-100-2' })).toEqual([JAN]);
    expect(await names({ q: '(555) 123' })).toEqual([ANNA]);
    expect(await names({ q: '+48' })).toEqual([JAN]);
    expect(await names({ q: '%' })).toEqual([PIOTR]);
    expect(await names({ q: '_' })).toEqual([PIOTR]);
    expect(await names({ q: '\\' })).toEqual([]);
    expect(await names({ q: '' })).toHaveLength(5);
  });

  it('sorts by createdAt, updatedAt, status (workflow order) and name, each reversible; ties by id in the same direction', async () => {
    expect(await names({ sort: '-createdAt' })).toEqual([BARTEK, ZOFIA, PIOTR, ANNA, JAN]);
    expect(await names({ sort: 'createdAt' })).toEqual([JAN, ANNA, PIOTR, ZOFIA, BARTEK]);
    expect(await names({ sort: 'updatedAt' })).toEqual([JAN, BARTEK, ANNA, PIOTR, ZOFIA]);
    expect(await names({ sort: '-updatedAt' })).toEqual([ZOFIA, PIOTR, ANNA, BARTEK, JAN]);
    expect(await names({ sort: 'status' })).toEqual([JAN, BARTEK, ANNA, PIOTR, ZOFIA]);
    expect(await names({ sort: '-status' })).toEqual([ZOFIA, PIOTR, ANNA, BARTEK, JAN]);
    expect(await names({ sort: 'name' })).toEqual([ANNA, BARTEK, JAN, PIOTR, ZOFIA]);
    expect(await names({ sort: '-name' })).toEqual([ZOFIA, PIOTR, JAN, BARTEK, ANNA]);
  });

  it('the apartment’s inquiries take the same filters and sorts', async () => {
    const url = `/api/v1/apartment/${apartment}/inquiries`;
    expect(await names({}, url)).toEqual([ZOFIA, JAN]);
    expect(await names({ sort: 'createdAt' }, url)).toEqual([JAN, ZOFIA]);
    expect(await names({ status: 'SPAM' }, url)).toEqual([ZOFIA]);
    expect(await names({ q: 'kowal' }, url)).toEqual([JAN]);
    expectError(await list({ estateId: e1 }, a.key, url), 400, /estateId is not allowed/);
    expectError(await list({ sort: 'priority' }, a.key, url), 400, /sort must be one of/);
  });

  it('pages with X-Total-Count and Link', async () => {
    const first = await list({ status: 'NEW,IN_PROGRESS,WON', limit: '2' });
    expect(first.json().count).toBe(4);
    expect(first.json().items.map((x: { name: string }) => x.name)).toEqual([BARTEK, PIOTR]);
    expect(first.headers['x-total-count']).toBe('4');
    expect(first.headers.link).toBe('</api/v1/inquiry?status=NEW%2CIN_PROGRESS%2CWON&limit=2&offset=2>; rel="next"');
    const second = await list({ status: 'NEW,IN_PROGRESS,WON', limit: '2', offset: '2' });
    expect(second.json().items.map((x: { name: string }) => x.name)).toEqual([ANNA, JAN]);
    expect(second.headers.link).toBe('</api/v1/inquiry?status=NEW%2CIN_PROGRESS%2CWON&limit=2&offset=0>; rel="prev"');
    // The default limit is 50: one page, no Link.
    const all = await list({});
    expect(all.headers['x-total-count']).toBe('5');
    expect(all.headers.link).toBeUndefined();
    const apartmentPage = await list({ limit: '1' }, a.key, `/api/v1/apartment/${apartment}/inquiries`);
    expect(apartmentPage.headers['x-total-count']).toBe('2');
    expect(apartmentPage.headers.link).toBe(`</api/v1/apartment/${apartment}/inquiries?limit=1&offset=1>; rel="next"`);
  });

  it('400 naming the parameter for unknown or malformed values', async () => {
    expectError(await list({ status: 'OPEN' }), 400, /status must be one of: NEW, IN_PROGRESS, WON, LOST, SPAM/);
    expectError(await list({ status: 'NEW,' }), 400, /status must be one of/);
    expectError(await list({ sort: 'priority' }), 400, /sort must be one of: -createdAt, createdAt, -updatedAt, updatedAt, status, -status, name, -name/);
    expectError(await list({ q: 'x'.repeat(201) }), 400, /q must/);
    expectError(await list({ email: 'jan@example.com' }), 400, /email is not allowed/);
    expectError(await list({ limit: '501' }), 400, /limit/);
  });

  it('another organization finds none of them and cannot list the apartment’s', async () => {
    const queries: Array<Record<string, string>> = [{ q: 'jan' }, { status: 'NEW,IN_PROGRESS,WON,LOST,SPAM' }, { estateId: e1 }];
    for (const query of queries) {
      const res = await list(query, b.key);
      expect(res.json()).toEqual({ count: 0, items: [] });
      expect(res.headers['x-total-count']).toBe('0');
    }
    expectError(await list({}, b.key, `/api/v1/apartment/${apartment}/inquiries`), 404);
  });
});
