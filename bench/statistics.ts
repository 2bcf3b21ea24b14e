/**
 * Fresh statistics (issue 38): the cost of rebuilding one building's list right after a write, as the
 * apartments table grows, with the service's ANALYZE after bulk writes ("fresh") and without it
 * ("stale": the statistics stay as they were at the first size, as on PGlite, which has no autovacuum,
 * or a PostgreSQL whose autovacuum is off or behind; autovacuum is off for the table here).
 *
 * In process, per engine and variant: a fresh database, one organization, a measured building of 100
 * apartments, and the table grown with POST /apartment/bulk (5,000 a call, into other buildings) to each
 * size; at each size, `--samples` times: PATCH one apartment of the measured building, then time its
 * GET /apartment?buildingId= (the list rebuilt: the write dropped the kept one). Figures are medians.
 *
 *   npm run bench:statistics                                       # 1k, 10k, 100k rows; both engines
 *   npm run bench:statistics -- --sizes 1000,10000,50000 --samples 20   # reduced, on a loaded machine
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { DiskBlobStore } from '../src/storage/disk.js';
import { createTestDatabaseUrl } from '../test/helpers/database.js';
import { benchApartment, median } from './lib.js';

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    variants: { type: 'string', default: 'fresh,stale' },
    sizes: { type: 'string', default: '1000,10000,100000' },
    samples: { type: 'string', default: '30' },
  },
});
const SIZES = args.sizes.split(',').map(Number);
const SAMPLES = Number(args.samples);
const ADMIN = 'bench-operator-token-0123456789';
const MEASURED = 100;
const CHUNK = 5000;

async function run(engine: string, variant: string): Promise<Array<{ rows: number; ms: number; reltuples: number }>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-statistics-'));
  const pg = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const db: Database = await openDatabase(pg ? { databaseUrl: pg.url, poolSize: 5 } : {});
  await migrate(db);
  if (pg) await db.query('ALTER TABLE apartments SET (autovacuum_enabled = false)');
  const config = loadConfig({ ADMIN_TOKEN: ADMIN, DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_KEY_MAX: '100000000' });
  const app = await buildApp({ config, db, storage: new DiskBlobStore(path.join(dataDir, 'files')), logger: false });
  await app.ready();
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, key: string, body?: unknown) => {
    const res = await app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(body ? { payload: body as object } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return res.json();
  };
  try {
    const { apiKey: key } = await call('POST', '/api/v1/admin/organizations', ADMIN, { name: 'Statistics Bench' });
    const estate = await call('POST', '/api/v1/estate', key, { name: 'Growing' });
    const building = async (name: string) => (await call('POST', '/api/v1/building', key, { name, estateId: estate.id })).id as string;
    const measured = await building('Measured');
    const ids: string[] = (
      await call('POST', '/api/v1/apartment/bulk', key, { buildingId: measured, apartments: Array.from({ length: MEASURED }, (_, i) => benchApartment(i)) })
    ).ids;
    let rows = MEASURED;
    const results = [];
    for (const [index, size] of SIZES.entries()) {
      while (rows < size) {
        const n = Math.min(CHUNK, size - rows);
        const target = await building(`Filler ${rows}`);
        await call('POST', '/api/v1/apartment/bulk', key, { buildingId: target, apartments: Array.from({ length: n }, (_, i) => benchApartment(rows + i)) });
        rows += n;
      }
      await app.services.statistics.settled();
      // The stale variant: analyzed once at the first size (so its numbers are right there), never again.
      if (index === 0) {
        await db.query('ANALYZE apartments');
        if (variant === 'stale') await app.services.statistics.close();
      }
      const times: number[] = [];
      // The first rebuilds (JIT, caches) are not counted.
      for (let s = -5; s < SAMPLES; s++) {
        await call('PATCH', `/api/v1/apartment/${ids[(s + 5) % ids.length]}`, key, { priceCents: 40_000_000 + s + index * 1000 });
        const started = performance.now();
        const list = await call('GET', `/api/v1/apartment?buildingId=${measured}`, key);
        if (s >= 0) times.push(performance.now() - started);
        if (list.count !== MEASURED) throw new Error(`listed ${list.count}`);
      }
      const [stat] = await db.query<{ reltuples: number }>(`SELECT reltuples::float8 AS reltuples FROM pg_class WHERE oid = 'apartments'::regclass`);
      results.push({ rows, ms: median(times), reltuples: Number(stat!.reltuples) });
      console.error(`${engine} ${variant} ${rows} rows: ${median(times).toFixed(2)} ms (planner's rows ${stat!.reltuples})`);
    }
    return results;
  } finally {
    await app.close();
    await db.close();
    await pg?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const table: string[] = [
  '| engine | statistics | ' + SIZES.map((s) => `${s.toLocaleString('en-US')} rows`).join(' | ') + ' |',
  `|---|---|${SIZES.map(() => '---|').join('')}`,
];
for (const engine of args.engines.split(',')) {
  for (const variant of args.variants.split(',')) {
    const results = await run(engine, variant);
    table.push(
      `| ${engine} | ${variant} | ${results.map((r) => `${r.ms.toFixed(1)} ms (planner: ${Math.round(r.reltuples).toLocaleString('en-US')})`).join(' | ')} |`,
    );
  }
}
console.log(table.join('\n'));
