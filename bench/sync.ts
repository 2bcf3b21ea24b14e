import { performance } from 'node:perf_hooks';
/**
 * The sync surface against its yardstick, in one process and one run: `POST /api/v1/apartment/upsert`
 * of 5,000 apartments into an empty building, then the same 5,000 again with 10% of the prices
 * changed, each as a ratio to `POST /api/v1/apartment/bulk` of 5,000 (the same items, no external
 * ids) measured in the same run. Target: both ratios <= 1.5. Through the whole app (app.inject: auth,
 * validation, service, one transaction); medians of --runs runs after one warm-up.
 *
 *   npm run bench:sync                                       # PGlite
 *   TEST_DATABASE=postgres npm run bench:sync -- --runs 7    # a fresh PostgreSQL database
 */
import { parseArgs } from 'node:util';
import { createTestApp } from '../test/helpers/app.js';
import { TEST_DATABASE } from '../test/helpers/database.js';
import { createBuilding, createEstate } from '../test/helpers/factories.js';
import { benchApartment as item, median } from './lib.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(args.runs);
const N = 5000;

const t = await createTestApp({ env: { RATE_LIMIT_KEY_MAX: '100000000' } });
try {
  const org = await t.createOrg('Bench sync');
  const estate = await createEstate(t, org.key);
  const timed = async (method: 'POST', url: string, body: unknown, status: number): Promise<{ ms: number; body: Record<string, unknown> }> => {
    const payload = JSON.stringify(body);
    const start = performance.now();
    const res = await t.app.inject({ method, url, payload, headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' } });
    const ms = performance.now() - start;
    if (res.statusCode !== status) throw new Error(`${url} -> ${res.statusCode} ${res.body.slice(0, 300)}`);
    return { ms, body: res.json() };
  };

  const rows: Array<{ bulk: number; create: number; resync: number }> = [];
  for (let run = 0; run <= RUNS; run++) {
    const bulkBuilding = await createBuilding(t, org.key, estate.id);
    const syncBuilding = await createBuilding(t, org.key, estate.id);
    const synced = Array.from({ length: N }, (_, i) => ({ ...item(i), externalId: `erp-${run}-${i}` }));
    const bulk = await timed('POST', '/api/v1/apartment/bulk', { buildingId: bulkBuilding.id, apartments: Array.from({ length: N }, (_, i) => item(i)) }, 201);
    const create = await timed('POST', '/api/v1/apartment/upsert', { buildingId: syncBuilding.id, apartments: synced }, 200);
    if (create.body.created !== N) throw new Error(`upsert created ${create.body.created}`);
    const changed = synced.map((a, i) => (i % 10 === 0 ? { ...a, priceCents: a.priceCents + 100 } : a));
    const resync = await timed('POST', '/api/v1/apartment/upsert', { buildingId: syncBuilding.id, apartments: changed }, 200);
    if (resync.body.updated !== N / 10 || resync.body.unchanged !== N - N / 10)
      throw new Error(`resync: ${JSON.stringify({ ...resync.body, items: undefined })}`);
    if (run > 0) rows.push({ bulk: bulk.ms, create: create.ms, resync: resync.ms }); // run 0 warms up every path
  }
  const m = (f: (r: (typeof rows)[number]) => number) => median(rows.map(f));
  console.log(
    [
      `${TEST_DATABASE}, ${N} apartments, median of ${RUNS} runs:`,
      `  POST /apartment/bulk                    ${m((r) => r.bulk).toFixed(0)} ms   1.00`,
      `  upsert into an empty building           ${m((r) => r.create).toFixed(0)} ms   ${m((r) => r.create / r.bulk).toFixed(2)}`,
      `  upsert again, 10% of prices changed     ${m((r) => r.resync).toFixed(0)} ms   ${m((r) => r.resync / r.bulk).toFixed(2)}`,
    ].join('\n'),
  );
} finally {
  await t.close();
}
