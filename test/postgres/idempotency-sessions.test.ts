import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';

/**
 * Keyed creates against PostgreSQL sessions that die: the one about to store the answer, and one
 * holding the claim of a request in flight.
 */
describe('Idempotency-Key when a database session dies (PostgreSQL)', () => {
  let t: TestApp;
  let a: TestOrg;
  let n = 0;
  const countEstates = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM estates WHERE organization_id = $1', [a.id]))[0]!.n;
  const post = (body: unknown, key: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'POST', url: '/api/v1/estate', key: a.key, body, headers: { 'idempotency-key': key, ...headers } });

  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'test', TEST_FAULTS: 'true' } });
    a = await t.createOrg('Sessions');
  });
  afterAll(async () => t?.close());

  it('a session terminated just before it stores the answer keeps nothing: 503, and the retry creates once', async () => {
    const body = { name: `Terminated ${++n}` };
    const before = await countEstates();
    const cut = await post(body, 'key-terminated', { 'x-test-fault': 'terminate-before-answer' });
    expect(cut.statusCode).toBe(503);
    expect(cut.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(await countEstates()).toBe(before);

    const retry = await post(body, 'key-terminated');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const again = await post(body, 'key-terminated');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(retry.body);
    expect(await countEstates()).toBe(before + 1);
  });

  it('answers 409 while another session holds the claim, and runs the retry once that session is gone', async () => {
    const body = { name: `Held ${++n}` };
    const before = await countEstates();
    // What a request in flight holds: the key's transaction-scoped lock, in a transaction of its own.
    const inFlight = await t.db.begin();
    const [{ pid }] = (await inFlight.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')) as [{ pid: number }];
    await inFlight.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`org:${a.id}\nkey-held`]);
    try {
      const busy = await post(body, 'key-held');
      expect(busy.statusCode).toBe(409);
      expect(busy.json()).toMatchObject({ statusCode: 409, error: 'Conflict' });
      expect(busy.json().message).toContain('still being processed');
      expect(await countEstates()).toBe(before);
      // Its process dies: PostgreSQL ends the session and rolls back whatever it did, so the key is free at once.
      await t.db.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      await inFlight.rollback();
    }
    const retry = await post(body, 'key-held');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await countEstates()).toBe(before + 1);
  });
});
