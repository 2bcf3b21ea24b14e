/**
 * Custom domains (issue 37) on the real server, alternating autocannon runs in one process run, medians:
 * - `GET /internal/tls/allowed?domain=<verified>` (Caddy's on-demand TLS ask) against `GET /health`
 *   (target: the ask >= 90% of /health);
 * - the estate's page by its custom hostname (`GET /` with `Host: homes.bench.example`) against
 *   `GET /p/{slug}` (target: >= 90%).
 * The hostname is verified through Debian's pebble-challtestsrv (test/helpers/dns-server.ts).
 *
 *   npm run bench:domains                                   # PGlite, then PostgreSQL (fresh database)
 *   npm run bench:domains -- --engines pglite --runs 5 --duration 5 --connections 10
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createTestDatabaseUrl } from '../test/helpers/database.js';
import { startTestDns } from '../test/helpers/dns-server.js';
import { ADMIN_TOKEN, type CannonResult, benchServerEnv, cannon, median, must, serverArgs, spawnServer, stop } from './lib.js';

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    runs: { type: 'string', default: '5' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
  },
});
const RUNS = Number(args.runs);
const HOST = 'homes.bench.example';
const load = { connections: Number(args.connections), duration: Number(args.duration), headers: { 'accept-encoding': 'br, gzip' } };

/** Alternating runs of `a` and `b`; the median of each and of their paired ratios. */
async function pair(a: () => Promise<CannonResult>, b: () => Promise<CannonResult>) {
  await a();
  await b();
  const as: CannonResult[] = [];
  const bs: CannonResult[] = [];
  for (let i = 0; i < RUNS; i++) {
    as.push(await a());
    bs.push(await b());
  }
  return {
    a: Math.round(median(as.map((r) => r.requests.average))),
    b: Math.round(median(bs.map((r) => r.requests.average))),
    pairedRatio: Number(median(as.map((r, i) => r.requests.average / bs[i]!.requests.average)).toFixed(3)),
    errors: [...as, ...bs].reduce((n, r) => n + r.errors + r.non2xx, 0),
  };
}

async function benchEngine(engine: 'pglite' | 'postgres') {
  const dns = await startTestDns();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-domains-'));
  const pg = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const env = { ...benchServerEnv(dataDir, ADMIN_TOKEN, pg?.url), DNS_SERVERS: dns.server, TLS_ASK_MAX: '1000000' };
  const app = await spawnServer(serverArgs(undefined, engine), env, 180);
  try {
    const base = app.base;
    const { apiKey: key } = await must(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Bench Domains' });
    const setup = await must(base, 'POST', '/api/v1/estate/setup', key, { name: 'Bench Lindenpark', buildingName: 'Tower A' });
    const apartments = Array.from({ length: 22 }, (_, i) => ({ name: `Home ${i + 1}`, status: 'ACTIVE', priceCents: 30_000_000 + i * 10_000 }));
    await must(base, 'POST', '/api/v1/apartment/bulk', key, { buildingId: setup.building.id, apartments });
    await must(base, 'PUT', `/api/v1/estates/${setup.estate.id}/page`, key, { enabled: true });
    const domain = await must(base, 'POST', `/api/v1/estates/${setup.estate.id}/domains`, key, { hostname: HOST });
    await dns.setTxt(domain.verification.txtName, domain.verification.txtValue);
    await must(base, 'POST', `/api/v1/estates/${setup.estate.id}/domains/${HOST}/verify`, key);

    const ask = await pair(
      () => cannon(`${base}/internal/tls/allowed?domain=${HOST}`, load),
      () => cannon(`${base}/health`, load),
    );
    const page = await pair(
      () => cannon(`${base}/`, { ...load, headers: { ...load.headers, host: HOST } }),
      () => cannon(`${base}/p/${setup.estate.slug}`, load),
    );
    const summary = {
      engine,
      askReqPerSec: ask.a,
      healthReqPerSec: ask.b,
      askPairedRatio: ask.pairedRatio,
      customHostPageReqPerSec: page.a,
      slugPageReqPerSec: page.b,
      pagePairedRatio: page.pairedRatio,
      errors: ask.errors + page.errors,
      runs: RUNS,
      durationS: load.duration,
      connections: load.connections,
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    process.stdout.write(
      `${engine}: the ask ${ask.pairedRatio >= 0.9 ? 'meets' : 'MISSES'} 90% of /health; the page by custom host ${page.pairedRatio >= 0.9 ? 'meets' : 'MISSES'} 90% of /p/{slug}\n`,
    );
  } finally {
    await stop(app.child);
    await dns.stop();
    await pg?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

for (const engine of (args.engines ?? '').split(',') as Array<'pglite' | 'postgres'>) await benchEngine(engine);
