import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeQueries } from '../../src/db/client.js';
import { publicView } from '../../src/http/publishable.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createApartment, createBuilding, createEstate } from '../helpers/factories.js';
import { multipart } from './assets-fixtures.js';

/**
 * GET /apartment kept per organization and query (src/modules/apartments/lists.ts), compressed once,
 * tagged: every write shows in the next list, compressed and plain answers are the same JSON, ETag and
 * 304, and the files' Range answers are untouched. On PostgreSQL without a LISTEN connection (this
 * helper's app) the cache is off and every read asks the database; test/postgres/apartment-lists.test.ts
 * covers two instances that do keep lists.
 */
describe('apartment lists: kept, compressed, tagged', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let estateId: string;
  let buildingId: string;
  const names = (body: { items: Array<{ name: string }> }) => body.items.map((i) => i.name);

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg('Lists');
    other = await t.createOrg('Other lists');
    estateId = (await createEstate(t, org.key)).id;
    buildingId = (await createBuilding(t, org.key, estateId, { name: 'Tower' })).id;
    const apartments = Array.from({ length: 40 }, (_, i) => ({
      name: `U-${String(i).padStart(2, '0')}`,
      description: 'Two rooms and a balcony',
      priceCents: 1000 + i,
    }));
    const bulk = await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: org.key, body: { buildingId, apartments } });
    expect(bulk.statusCode, bulk.body).toBe(201);
  });
  afterAll(() => t?.close());

  const list = (query: Record<string, string> = {}, headers: Record<string, string> = {}, key = org.key) =>
    t.request({ method: 'GET', url: '/api/v1/apartment', key, query: { buildingId, ...query }, headers });

  async function listStatements(fn: () => Promise<unknown>): Promise<number> {
    let n = 0;
    observeQueries(t.db, (sql) => {
      if (sql.includes(`'{"count":'`)) n++;
    });
    try {
      await fn();
    } finally {
      observeQueries(t.db, undefined);
    }
    return n;
  }

  it('every write shows in the next list: create, bulk, PATCH, upsert, bulk PATCH, a building change, a change made in the database', async () => {
    const first = (await list()).json();
    expect(first.count).toBe(40);
    await createApartment(t, org.key, buildingId, { name: 'New one' });
    expect(names((await list()).json())).toContain('New one');

    await list();
    const bulk = await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: org.key, body: { buildingId, apartments: [{ name: 'Bulk one' }] } });
    expect(bulk.statusCode).toBe(201);
    expect((await list()).json().count).toBe(42);

    const id = first.items[0].id as string;
    await list();
    expect((await t.request({ method: 'PATCH', url: `/api/v1/apartment/${id}`, key: org.key, body: { priceCents: 777 } })).statusCode).toBe(200);
    expect((await list()).json().items[0].priceCents).toBe(777);

    await list();
    const upsert = await t.request({
      method: 'POST',
      url: '/api/v1/apartment/upsert',
      key: org.key,
      body: { buildingId, apartments: [{ externalId: 'ERP-9', name: 'Synced' }] },
    });
    expect(upsert.statusCode, upsert.body).toBe(200);
    expect(names((await list()).json())).toContain('Synced');

    await list();
    const patched = await t.request({
      method: 'PATCH',
      url: '/api/v1/apartment/bulk',
      key: org.key,
      body: { apartments: [{ externalId: 'ERP-9', status: 'SOLD' }] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await list({ status: 'SOLD' })).json().count).toBe(1);

    await list();
    expect((await t.request({ method: 'PATCH', url: `/api/v1/building/${buildingId}`, key: org.key, body: { description: 'New lobby' } })).statusCode).toBe(
      200,
    );
    expect((await list()).json().items[0].building.description).toBe('New lobby');

    await list();
    await t.db.query('UPDATE apartments SET name = $1 WHERE id = $2', ['Renamed by hand', id]);
    expect((await list()).json().items[0].name).toBe('Renamed by hand');
  });

  it('a list read again while nothing changed runs no statement (PGlite); concurrent misses share one', async () => {
    await list({ limit: '5' });
    const again = await listStatements(() => list({ limit: '5' }));
    expect(again).toBe(t.db.kind === 'pglite' ? 0 : 1);
    await createApartment(t, org.key, buildingId, { name: `Concurrent ${Date.now()}` });
    const concurrent = await listStatements(() => Promise.all(Array.from({ length: 10 }, () => list({ limit: '5' }))));
    expect(concurrent).toBe(t.db.kind === 'pglite' ? 1 : 10);
  });

  it('the webhook worker’s idle claims (every 2 s) do not drop kept lists', async () => {
    await list({ limit: '6' });
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await listStatements(() => list({ limit: '6' }))).toBe(t.db.kind === 'pglite' ? 0 : 1);
  });

  it('keeps lists apart by organization and query', async () => {
    const mine = (await list({ limit: '3' })).json();
    expect(mine.items).toHaveLength(3);
    expect((await list({ limit: '4' })).json().items).toHaveLength(4);
    expect((await list({ limit: '3', offset: '3' })).json().items[0].id).not.toBe(mine.items[0].id);
    // Another organization's key names the same building: its own (empty) list, never the kept one.
    const theirs = await list({ limit: '3' }, {}, other.key);
    expect(theirs.json()).toEqual({ count: 0, items: [] });
    expect(theirs.headers['x-total-count']).toBe('0');
    // The same building id in upper case is the same list.
    const upper = await t.request({ method: 'GET', url: '/api/v1/apartment', key: org.key, query: { buildingId: buildingId.toUpperCase(), limit: '3' } });
    expect(upper.json()).toEqual(mine);
  });

  it('compressed answers (br, then gzip) decode to the same JSON as the plain one, with Vary: Accept-Encoding', async () => {
    const plain = await list();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const br = await list({}, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length * 0.15);
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const gzip = await list({}, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
    const identity = await list({}, { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.rawPayload.equals(plain.rawPayload)).toBe(true);
    // The same tag whatever the encoding: an If-None-Match from a compressed read still matches.
    expect(br.headers.etag).toBe(plain.headers.etag);
    expect(gzip.headers.etag).toBe(plain.headers.etag);
    // Under 1 KB nothing is compressed.
    const small = await list({ limit: '0' }, { 'accept-encoding': 'br' });
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toMatch(/accept-encoding/i);
  });

  it('answers If-None-Match with 304 until the list changes; X-Total-Count and Link stay exact', async () => {
    const first = await list({ limit: '10', offset: '10' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const total = Number(first.headers['x-total-count']);
    expect(first.json().count).toBe(total);
    expect(first.headers.link).toContain('limit=10&offset=20>; rel="next"');
    expect(first.headers.link).toContain('limit=10&offset=0>; rel="prev"');
    const same = await list({ limit: '10', offset: '10' }, { 'if-none-match': etag, 'accept-encoding': 'br' });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.etag).toBe(etag);
    expect(same.headers.vary).toMatch(/accept-encoding/i);
    expect((await list({ limit: '10', offset: '10' }, { 'if-none-match': `W/${etag}` })).statusCode).toBe(304);
    expect((await list({ limit: '10', offset: '10' }, { 'if-none-match': '"other"' })).statusCode).toBe(200);

    await createApartment(t, org.key, buildingId, { name: 'After the tag' });
    const changed = await list({ limit: '10', offset: '10' }, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(Number(changed.headers['x-total-count'])).toBe(total + 1);
  });

  it('a publishable key’s list is masked, compressed and tagged too', async () => {
    const pub = (await t.issueKey(org.id, ['publishable'])).key;
    const url = '/api/v1/apartment';
    const headers = { 'accept-encoding': 'br' };
    const first = await t.request({ method: 'GET', url, key: pub, query: { buildingId, limit: '30' }, headers });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toMatch(/authorization/i);
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    const doc = JSON.parse(brotliDecompressSync(first.rawPayload).toString());
    expect(doc.items.every((a: { priceChangeHistory: unknown[]; externalId: unknown }) => a.priceChangeHistory.length === 0 && a.externalId === null)).toBe(
      true,
    );
    // The kept answer, compressed once: the same bytes again.
    const again = await t.request({ method: 'GET', url, key: pub, query: { buildingId, limit: '30' }, headers });
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const plain = await t.request({ method: 'GET', url, key: pub, query: { buildingId, limit: '30' } });
    expect(plain.json()).toEqual(doc);
    expect(plain.headers.etag).toBe(first.headers.etag);
    const notModified = await t.request({
      method: 'GET',
      url,
      key: pub,
      query: { buildingId, limit: '30' },
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(notModified.statusCode).toBe(304);
  });

  it('a publishable key’s list, masked by the statement, is what publicView makes of the read key’s list', async () => {
    const pub = (await t.issueKey(org.id, ['publishable'])).key;
    const { items } = (await list({ limit: '3' })).json();
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/v1/apartment/${items[1].id}`,
      key: org.key,
      body: { showPrice: false, externalId: 'ERP-MASK', source: 'erp', lastSynchronizedAt: '2026-01-02T03:04:05.000Z' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await t.request({ method: 'PATCH', url: `/api/v1/apartment/${items[1].id}`, key: org.key, body: { priceCents: 5555 } })).statusCode).toBe(200);
    // HIDDEN with showPrice true: its price is hidden from a publishable key all the same.
    const hidden = await t.request({
      method: 'PATCH',
      url: `/api/v1/apartment/${items[2].id}`,
      key: org.key,
      body: { status: 'HIDDEN', showPrice: true, priceCents: 7777 },
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    const full = (await list({ limit: '3' })).json();
    expect(full.items[1].priceChangeHistory.length).toBeGreaterThan(0);
    publicView(full);
    const masked = await t.request({ method: 'GET', url: '/api/v1/apartment', key: pub, query: { buildingId, limit: '3' } });
    expect(masked.json()).toEqual(full);
    expect(masked.json().items[1]).toMatchObject({ priceCents: null, externalId: null, source: null, lastSynchronizedAt: null, priceChangeHistory: [] });
    expect(masked.json().items[2]).toMatchObject({ status: 'HIDDEN', showPrice: true, priceCents: null });
    expect(masked.body).not.toContain('7777');
    expect(masked.headers['cache-control']).toBe('public, max-age=30');
  });

  it('no key is 401, a bad query is 400: neither is kept nor compressed', async () => {
    const none = await t.request({ method: 'GET', url: '/api/v1/apartment', query: { buildingId } });
    expect(none.statusCode).toBe(401);
    const bad = await list({ limit: 'abc' }, { 'accept-encoding': 'br' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/limit/);
  });

  it('files are never compressed, and their Range answers are byte ranges of the stored file', async () => {
    const html = Buffer.from(`<!doctype html><title>x</title><p>${'A floor plan description. '.repeat(200)}</p>`);
    for (const [filename, type, data] of [
      ['plan.html', 'text/html', html],
      ['data.json', 'application/json', Buffer.from(JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i, name: `row ${i}` })) }))],
    ] as const) {
      const form = multipart({ filename, type, data });
      const up = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: org.key, body: form.body, headers: form.headers });
      expect(up.statusCode, up.body).toBe(201);
      const path = new URL(up.json().src).pathname;
      const whole = await t.request({ method: 'GET', url: path, headers: { 'accept-encoding': 'br, gzip' } });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-encoding']).toBeUndefined();
      expect(whole.rawPayload.equals(data)).toBe(true);
      const part = await t.request({ method: 'GET', url: path, headers: { 'accept-encoding': 'br, gzip', range: 'bytes=100-1299' } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-encoding']).toBeUndefined();
      expect(part.headers['content-range']).toBe(`bytes 100-1299/${data.length}`);
      expect(part.rawPayload.equals(data.subarray(100, 1300))).toBe(true);
    }
  });
});
