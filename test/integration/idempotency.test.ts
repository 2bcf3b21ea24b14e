import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createProject } from '../helpers/factories.js';
import { multipart, png } from './assets-fixtures.js';

describe('Idempotency-Key on creating POSTs', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let n = 0;
  const countEstates = async (key: string) =>
    ((await t.request({ method: 'GET', url: '/api/v1/estate', key, query: { limit: '1000' } })).json() as unknown[]).length;
  const post = (url: string, key: string | undefined, body: unknown, idemKey?: string) =>
    t.request({ method: 'POST', url, key, body, ...(idemKey !== undefined ? { headers: { 'idempotency-key': idemKey } } : {}) });

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Idem A');
    b = await t.createOrg('Idem B');
  });
  afterAll(async () => t?.close());

  it('replays the first response with the same status and identical body, creating nothing', async () => {
    const before = await countEstates(a.key);
    const body = { name: `Replay ${++n}`, description: 'x' };
    const first = await post('/api/v1/estate', a.key, body, 'key-replay-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Key order differs: still the same request.
    const again = await post('/api/v1/estate', a.key, { description: 'x', name: body.name }, 'key-replay-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.body).toBe(first.body);
    expect(await countEstates(a.key)).toBe(before + 1);
  });

  it('answers 422 to the same key with a different body, path or method', async () => {
    const first = await post('/api/v1/estate', a.key, { name: `Diff ${++n}` }, 'key-diff');
    expect(first.statusCode).toBe(201);
    const before = await countEstates(a.key);
    const other = await post('/api/v1/estate', a.key, { name: `Diff other ${n}` }, 'key-diff');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ statusCode: 422, error: 'Unprocessable Entity' });
    expect(other.json().message).toContain('Idempotency-Key');
    const setup = await post('/api/v1/estate/setup', a.key, { name: `Diff ${n}` }, 'key-diff');
    expect(setup.statusCode).toBe(422);
    expect(await countEstates(a.key)).toBe(before);
  });

  it('scopes keys per organization: the same key in another organization is a new operation', async () => {
    const key = 'shared-key-across-orgs';
    expect((await post('/api/v1/estate', a.key, { name: `Scoped ${++n}` }, key)).statusCode).toBe(201);
    const inB = await post('/api/v1/estate', b.key, { name: `Scoped ${n}` }, key);
    expect(inB.statusCode).toBe(201);
    expect(inB.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses malformed keys with 400', async () => {
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'zażółć']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/estate',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json', 'idempotency-key': bad },
        payload: JSON.stringify({ name: `Bad key ${++n}` }),
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().message).toContain('Idempotency-Key');
    }
    expect((await post('/api/v1/estate', a.key, { name: `Long key ${++n}` }, 'k'.repeat(255))).statusCode).toBe(201);
  });

  it('creates exactly one record for 20 concurrent requests with one key', async () => {
    const before = await countEstates(a.key);
    const body = { name: `Concurrent ${++n}` };
    const results = await Promise.all(Array.from({ length: 20 }, () => post('/api/v1/estate', a.key, body, 'key-concurrent')));
    const statuses = results.map((r) => r.statusCode);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(','),
    ).toBe(true);
    const fresh = results.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode === 201)) expect(r.body).toBe(fresh[0]!.body);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().message).toContain('still being processed');
    expect(await countEstates(a.key)).toBe(before + 1);
    const later = await post('/api/v1/estate', a.key, body, 'key-concurrent');
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBe('true');
  });

  it("keeps no refusal: the README's upsert answers 422, the fixed request with the same key runs (issue 25)", async () => {
    const { building } = await createProject(t, a.key);
    const upsert = (apartments: unknown[]) => post('/api/v1/apartment/upsert', a.key, { buildingId: building.id, apartments }, 'pricelist-2026-11-23');
    // As in the README: A-102 is new, so it needs a name.
    const refused = await upsert([
      { externalId: 'A-101', name: 'A 1.01', priceCents: 41500000, status: 'ACTIVE' },
      { externalId: 'A-102', priceCents: 39900000 },
    ]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toContain('apartments[1].name is required');
    const fixed = [
      { externalId: 'A-101', name: 'A 1.01', priceCents: 41500000, status: 'ACTIVE' },
      { externalId: 'A-102', name: 'A 1.02', priceCents: 39900000 },
    ];
    const ran = await upsert(fixed);
    expect(ran.statusCode).toBe(200);
    expect(ran.headers['idempotent-replayed']).toBeUndefined();
    expect(ran.json()).toMatchObject({ created: 2, updated: 0 });
    // What ran is kept: the same request replays it, a different one is a misuse of the key.
    const replay = await upsert(fixed);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(ran.body);
    expect((await upsert([{ externalId: 'A-103', name: 'A 1.03' }])).statusCode).toBe(422);
  });

  it('keeps no 404, 409 or 403 either: each retry with the key runs again', async () => {
    const missing = '01890000-0000-7000-8000-000000000000';
    const first = await post('/api/v1/building', a.key, { name: 'B', estateId: missing }, 'key-404');
    expect(first.statusCode).toBe(404);
    const again = await post('/api/v1/building', a.key, { name: 'B', estateId: missing }, 'key-404');
    expect(again.statusCode).toBe(404);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    // The parent exists now: the same key creates.
    const { estate } = await createProject(t, a.key);
    const created = await post('/api/v1/building', a.key, { name: 'B', estateId: estate.id }, 'key-404b');
    expect(created.statusCode).toBe(201);

    const name = `Conflict ${++n}`;
    expect((await post('/api/v1/estate', a.key, { name })).statusCode).toBe(201);
    const clash = await post('/api/v1/estate', a.key, { name }, 'key-409');
    expect(clash.statusCode).toBe(409);
    const retry = await post('/api/v1/estate', a.key, { name }, 'key-409');
    expect(retry.statusCode).toBe(409);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const renamed = await post('/api/v1/estate', a.key, { name: `${name} bis` }, 'key-409');
    expect(renamed.statusCode).toBe(201);

    const readOnly = await t.issueKey(a.id, ['read']);
    expect((await post('/api/v1/estate', readOnly.key, { name: `Forbidden ${n}` }, 'key-403')).statusCode).toBe(403);
    const rows = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM idempotency_keys WHERE idempotency_key IN ('key-404', 'key-403')`);
    expect(rows[0]!.n).toBe('0');
  });

  it('releases the key after a 5xx so the retry runs again', async () => {
    const name = `Fault probe ${++n}`;
    // A real database fault for this one name: a CHECK violation is not a client error, so it is a 500.
    await t.db.query(`ALTER TABLE estates ADD CONSTRAINT idem_fault_probe CHECK (name <> '${name}')`);
    try {
      const failed = await post('/api/v1/estate', a.key, { name }, 'key-5xx');
      expect(failed.statusCode).toBe(500);
    } finally {
      await t.db.query('ALTER TABLE estates DROP CONSTRAINT idem_fault_probe');
    }
    const retry = await post('/api/v1/estate', a.key, { name }, 'key-5xx');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keys the public inquiry submission by client IP and replays its receipt', async () => {
    const { estate } = await createProject(t, a.key);
    const body = { name: 'Prospect', email: 'p@example.com' };
    const first = await post(`/api/v1/estates/${estate.id}/inquiries`, undefined, body, 'inquiry-key');
    expect(first.statusCode).toBe(201);
    const again = await post(`/api/v1/estates/${estate.id}/inquiries`, undefined, body, 'inquiry-key');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    const list = (await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key, query: { estateId: estate.id } })).json();
    expect(list.count).toBe(1);
  });

  it('replays a multipart upload retried with the same bytes, keeping one asset', async () => {
    const countAssets = async () => {
      const body = (await t.request({ method: 'GET', url: '/api/v1/asset', key: a.key })).json();
      return (Array.isArray(body) ? body : body.items).length as number;
    };
    const before = await countAssets();
    const { body, headers } = multipart({ filename: 'room.png', type: 'image/png', data: png() });
    const send = (h: Record<string, string>) => t.request({ method: 'POST', url: '/api/v1/asset/upload', key: a.key, body, headers: { ...headers, ...h } });
    const first = await send({ 'idempotency-key': 'upload-1' });
    expect(first.statusCode).toBe(201);
    const again = await send({ 'idempotency-key': 'upload-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await countAssets()).toBe(before + 1);
    const bigger = multipart({ filename: 'room.png', type: 'image/png', data: Buffer.concat([png(), Buffer.alloc(10)]) }, { name: 'other' });
    const different = await t.request({
      method: 'POST',
      url: '/api/v1/asset/upload',
      key: a.key,
      body: bigger.body,
      headers: { ...bigger.headers, 'idempotency-key': 'upload-1' },
    });
    expect(different.statusCode).toBe(422);
  });

  it('documents the header on every idempotent route in OpenAPI', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>> };
    const estate = doc.paths['/api/v1/estate']!.post!;
    expect(estate.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'idempotency-key' }));
  });

  it('replays across a restart: a second app on the same database answers from the stored record', async () => {
    const body = { name: `Restart ${++n}` };
    const first = await post('/api/v1/estate', a.key, body, 'key-restart');
    expect(first.statusCode).toBe(201);
    const second = await buildApp({ config: t.config, db: t.db, storage: t.storage, logger: false });
    try {
      const res = await second.inject({
        method: 'POST',
        url: '/api/v1/estate',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json', 'idempotency-key': 'key-restart' },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replayed']).toBe('true');
      expect(res.body).toBe(first.body);
    } finally {
      await second.close();
    }
  });

  it('answers 409 to a claim an older version committed before its work, and never takes it over: that work may have committed', async () => {
    const body = { name: `Running ${++n}` };
    expect((await post('/api/v1/estate', a.key, body, 'key-running')).statusCode).toBe(201);
    const before = await countEstates(a.key);
    // The state a claim had, committed, while its request was in flight before claim, work and answer became one transaction.
    await t.db.query(`UPDATE idempotency_keys SET state = 'running', status_code = NULL, response_body = NULL WHERE idempotency_key = 'key-running'`);
    const busy = await post('/api/v1/estate', a.key, body, 'key-running');
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect(busy.json().message).toContain('still being processed');
    // An hour later its process is surely gone, but whether its create committed is unknown: still 409.
    await t.db.query(`UPDATE idempotency_keys SET created_at = now() - interval '1 hour' WHERE idempotency_key = 'key-running'`);
    const later = await post('/api/v1/estate', a.key, body, 'key-running');
    expect(later.statusCode).toBe(409);
    expect(await countEstates(a.key)).toBe(before);
    // A new request with the key is still a misuse of it.
    expect((await post('/api/v1/estate', a.key, { name: `Running other ${n}` }, 'key-running')).statusCode).toBe(422);
  });

  it('keeps nothing of a keyed request whose answer cannot be stored, so the retry runs once', async () => {
    const name = `Unstored ${++n}`;
    const before = await countEstates(a.key);
    // A real fault at the last statement: the answer row cannot be inserted, so the create is rolled back with it.
    await t.db.query(`ALTER TABLE idempotency_keys ADD CONSTRAINT idem_store_probe CHECK (idempotency_key <> 'key-unstored')`);
    try {
      const failed = await post('/api/v1/estate', a.key, { name }, 'key-unstored');
      expect(failed.statusCode).toBe(500);
      expect(failed.json()).toMatchObject({ statusCode: 500, error: 'Internal Server Error' });
    } finally {
      await t.db.query('ALTER TABLE idempotency_keys DROP CONSTRAINT idem_store_probe');
    }
    expect(await countEstates(a.key)).toBe(before);
    const retry = await post('/api/v1/estate', a.key, { name }, 'key-unstored');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await countEstates(a.key)).toBe(before + 1);
    const replay = await post('/api/v1/estate', a.key, { name }, 'key-unstored');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(retry.body);
  });

  it('lets a key be reused once its record has expired', async () => {
    const body = { name: `Expiry ${++n}` };
    expect((await post('/api/v1/estate', a.key, body, 'key-expiry')).statusCode).toBe(201);
    await t.db.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE idempotency_key = 'key-expiry'`);
    const reused = await post('/api/v1/estate', a.key, { name: `Expiry new ${n}` }, 'key-expiry');
    expect(reused.statusCode).toBe(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    expect(reused.json().name).toBe(`Expiry new ${n}`);
  });

  it('flags every creating POST of the partner and public surface as idempotent', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
    const creating = Object.entries(doc.paths)
      .filter(([, ops]) => ops.post?.responses?.['201'])
      .map(([path]) => path.replace(/\{(\w+)\}/g, ':$1'));
    expect(creating.length).toBeGreaterThan(5);
    // The operator surface is exempt: its callers are scripts run by the operator, not retrying clients.
    // POST /api-keys neither: replaying its answer would mean storing the new secret in the clear (docs/decisions.md).
    const partnerOrPublic = creating.filter((path) => !path.startsWith('/api/v1/admin/') && path !== '/api/v1/api-keys');
    const unflagged = partnerOrPublic.filter((path) => !t.app.routeTable.some((r) => r.method === 'POST' && r.url === path && r.idempotent));
    expect(unflagged).toEqual([]);
  });
});
