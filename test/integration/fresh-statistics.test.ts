import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { FreshStatistics } from '../../src/db/fresh-statistics.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { createBuilding, createEstate } from '../helpers/factories.js';

const items = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ name: `${prefix} ${i + 1}`, externalId: `${prefix}-${i + 1}` }));

/**
 * Fresh statistics (issue 38): a bulk write of 1,000 rows or more is followed, in the background and
 * once per burst, by ANALYZE of the apartments; a small one is not. On PostgreSQL autovacuum is off for
 * the table, as on a server whose autovacuum is off or behind (and as PGlite has none), so every
 * analysis counted here is the service's.
 */
describe(`fresh statistics after bulk writes on ${TEST_DATABASE}`, () => {
  let t: TestApp;
  let a: TestOrg;
  let buildingId: string;

  /** How often the apartments were analyzed by ANALYZE (not by autovacuum), and the planner's row count. */
  const statistics = async () => {
    const [row] = await t.db.query<{ analyzed: string; reltuples: number }>(
      `SELECT (SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'apartments')::text AS analyzed,
         (SELECT reltuples FROM pg_class WHERE oid = 'apartments'::regclass)::float8 AS reltuples`,
    );
    return { analyzed: Number(row!.analyzed), reltuples: Number(row!.reltuples) };
  };
  const settled = () => t.app.services.statistics.settled();
  const post = (url: string, apartments: unknown[], method: 'POST' | 'PATCH' = 'POST') =>
    t.request({ method, url, key: a.key, body: method === 'PATCH' ? { apartments } : { buildingId, apartments } });

  beforeAll(async () => {
    t = await createTestApp();
    if (TEST_DATABASE === 'postgres') await t.db.query('ALTER TABLE apartments SET (autovacuum_enabled = false)');
    a = await t.createOrg('Statistics');
    buildingId = (await createBuilding(t, a.key, (await createEstate(t, a.key)).id)).id;
  });
  afterAll(async () => t?.close());

  it('a small bulk create leaves the statistics alone; 1,000 rows analyze the apartments once, after the answer', async () => {
    const before = await statistics();
    expect((await post('/api/v1/apartment/bulk', items(20, 'Small'))).statusCode).toBe(201);
    await settled();
    expect(await statistics()).toEqual(before);

    expect((await post('/api/v1/apartment/bulk', items(1000, 'Large'))).statusCode).toBe(201);
    await settled();
    const after = await statistics();
    expect(after.analyzed).toBe(before.analyzed + 1);
    expect(after.reltuples).toBeGreaterThanOrEqual(1020);
  });

  it('a burst of upserts and bulk updates of 1,000 rows in all is analyzed once, at its end', async () => {
    const before = await statistics();
    // 4 calls of 250 named rows each (the upserts stamp every row they name): due after the 4th.
    for (let i = 0; i < 2; i++) expect((await post('/api/v1/apartment/upsert', items(250, 'Large'))).statusCode).toBe(200);
    const changes = items(250, 'Large').map((item) => ({ externalId: item.externalId, description: 'Changed' }));
    expect((await post('/api/v1/apartment/bulk', changes, 'PATCH')).statusCode).toBe(200);
    expect((await post('/api/v1/apartment/upsert', items(250, 'Large'))).statusCode).toBe(200);
    await settled();
    expect((await statistics()).analyzed).toBe(before.analyzed + 1);
    // What was counted is gone with that ANALYZE: a small call after it does not make another.
    expect((await post('/api/v1/apartment/upsert', items(10, 'Small'))).statusCode).toBe(200);
    await settled();
    expect((await statistics()).analyzed).toBe(before.analyzed + 1);
  });

  it('writes reported while a burst goes on make one ANALYZE, run once the writes pause', async () => {
    const before = await statistics();
    const infos: unknown[] = [];
    const stats = new FreshStatistics(t.db, { info: (fields) => infos.push(fields), warn: () => {} }, { delayMs: 200 });
    for (let i = 0; i < 5; i++) stats.changed('apartments', 1000);
    await stats.settled();
    expect((await statistics()).analyzed).toBe(before.analyzed + 1);
    expect(infos).toEqual([{ tables: ['apartments'], durationMs: expect.any(Number) }]);
    await stats.close();
  });

  it('a failing ANALYZE is logged, never thrown', async () => {
    const db = await openDatabase({});
    await db.close();
    const warnings: string[] = [];
    const stats = new FreshStatistics(db, { info: () => {}, warn: (_fields, msg) => warnings.push(msg) }, { delayMs: 0 });
    stats.changed('apartments', 1000);
    await stats.settled();
    expect(warnings).toEqual(['statistics: ANALYZE of apartments failed; the planner keeps its older numbers']);
    await stats.close();
  });
});
