/**
 * `GET /api/v1/apartment/{id}` with an organization key on the real server (auth, rate limit, the
 * apartment and its building read, mapping, serialization) against a bare Fastify route that runs one
 * primary-key `SELECT * FROM apartments WHERE id = $1` on the same engine: alternating autocannon
 * runs, medians. The ratios say what the read path costs over the floor of one query, so runs on
 * different commits of a shared machine can be compared.
 *
 *   npx tsx bench/apartment-read.ts                                   # builds, PGlite then PostgreSQL
 *   npx tsx bench/apartment-read.ts --engines pglite --runs 5 --duration 8 --connections 50
 */
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/paths.js';
import { createTestDatabaseUrl } from '../test/helpers/database.js';
import { ADMIN_TOKEN, type CannonResult, benchServerEnv, cannon, median, must, spawnServer, stop } from './lib.js';

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    runs: { type: 'string', default: '5' },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '50' },
    'no-build': { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const load = { connections: CONNECTIONS, duration: DURATION };

/** One organization, estate, building and apartment through the API; returns the key and the apartment. */
async function seed(base: string): Promise<{ key: string; apartment: Record<string, unknown> & { id: string } }> {
  const { apiKey: key } = await must(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Bench Org' });
  const estate = await must(base, 'POST', '/api/v1/estate', key, { name: 'Bench Estate' });
  const building = await must(base, 'POST', '/api/v1/building', key, { estateId: estate.id, name: 'Bench Building' });
  const apartment = await must(base, 'POST', '/api/v1/apartment', key, {
    buildingId: building.id,
    name: 'Unit 1',
    priceCents: 40_000_000,
    description: 'Two rooms, south-facing balcony, storage in the basement.',
    apartmentData: { area: 52, rooms: 2, floor: 3, bathrooms: 1, exposures: ['S', 'W'] },
  });
  return { key, apartment };
}

async function benchEngine(engine: 'pglite' | 'postgres') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-read-'));
  const pg = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const env = benchServerEnv(dataDir, ADMIN_TOKEN, pg?.url);
  const app = await spawnServer([path.join(projectRoot, 'dist/src/server.js')], env);
  let bare: { child: ChildProcess; base: string } | undefined;
  try {
    const { key, apartment } = await seed(app.base);
    const read = `/api/v1/apartment/${apartment.id}`;
    const got = await must(app.base, 'GET', read, key);
    if (got.id !== apartment.id) throw new Error('the real server does not read the apartment back');
    bare = await spawnServer(['--import', 'tsx', path.join(projectRoot, 'bench/apartment-read-bare-server.ts')], {
      ...(pg ? { DATABASE_URL: pg.url } : { DB_DIR: path.join(dataDir, 'bare-db'), APARTMENT_JSON: JSON.stringify(apartment) }),
    });
    const bareRow = (await (await fetch(bare.base + read)).json()) as { id?: string };
    if (bareRow.id !== apartment.id) throw new Error('the bare route does not read the apartment');

    await cannon(app.base + read, { ...load, key }); // warm-up: JIT, pools, key cache
    await cannon(bare.base + read, load);
    const appRuns: CannonResult[] = [];
    const bareRuns: CannonResult[] = [];
    for (let i = 0; i < RUNS; i++) {
      appRuns.push(await cannon(app.base + read, { ...load, key }));
      bareRuns.push(await cannon(bare.base + read, load));
    }
    const appReqPerSec = median(appRuns.map((r) => r.requests.average));
    const bareReqPerSec = median(bareRuns.map((r) => r.requests.average));
    const appP99Ms = median(appRuns.map((r) => r.latency.p99));
    const bareP99Ms = median(bareRuns.map((r) => r.latency.p99));
    // Each app run is paired with the bare run right after it; on a shared machine the median of
    // these paired ratios is steadier than the ratio of the two medians.
    const pairedRatio = median(appRuns.map((r, i) => r.requests.average / bareRuns[i]!.requests.average));
    const pairedP99Ratio = median(appRuns.map((r, i) => r.latency.p99 / Math.max(bareRuns[i]!.latency.p99, 1)));
    const summary = {
      engine,
      appReqPerSec: Math.round(appReqPerSec),
      bareReqPerSec: Math.round(bareReqPerSec),
      ratio: Number((appReqPerSec / bareReqPerSec).toFixed(3)),
      pairedRatio: Number(pairedRatio.toFixed(3)),
      appP99Ms,
      bareP99Ms,
      p99Ratio: Number((appP99Ms / Math.max(bareP99Ms, 1)).toFixed(2)),
      pairedP99Ratio: Number(pairedP99Ratio.toFixed(2)),
      runs: RUNS,
      durationS: DURATION,
      connections: CONNECTIONS,
      appRuns: appRuns.map((r) => Math.round(r.requests.average)),
      bareRuns: bareRuns.map((r) => Math.round(r.requests.average)),
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    process.stdout.write(
      `${engine}: app ${summary.appReqPerSec} req/s p99 ${appP99Ms} ms; bare ${summary.bareReqPerSec} req/s p99 ${bareP99Ms} ms; ratio ${summary.ratio} (paired ${summary.pairedRatio}), p99 ratio ${summary.p99Ratio} (median of ${RUNS} x ${DURATION} s, ${CONNECTIONS} connections)\n`,
    );
  } finally {
    if (bare) await stop(bare.child);
    await stop(app.child);
    await pg?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (!args['no-build']) execFileSync('npm', ['run', 'build', '--silent'], { cwd: projectRoot, stdio: 'inherit' });
for (const engine of args.engines.split(',').map((e) => e.trim())) {
  if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`unknown engine ${engine}`);
  await benchEngine(engine);
}
