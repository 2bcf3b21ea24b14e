/**
 * Apartment lists (issue 29) against a bare Fastify route running one json_agg statement on the same
 * engine (bench/lists-bare-server.ts), and optionally against the server of an earlier commit
 * (`--baseline <dir>`: a built checkout), in alternating rounds of one run; every figure is a median
 * over the rounds, and ratios are paired per round, so runs on a shared machine compare.
 *
 * - list500:     GET /apartment?buildingId=&limit=500 with a read key, 50 connections, nothing written
 * - list500w:    the same while one client PATCHes an apartment of that building back to back (every
 *                read follows a write); the bare route runs beside the same writer on PostgreSQL
 * - list15k:     GET /apartment?buildingId= of 15,001 apartments, sequential: kept, and right after a write
 * - publishable: the 500-list with a publishable key vs with a read key (Accept-Encoding: br, gzip)
 * - bytes:       the 500-list with Accept-Encoding: br, gzip vs none: bytes of one answer, req/s
 *
 *   npm run bench:lists -- --baseline /tmp/base          # both engines, 3 rounds of 5 s
 *   npm run bench:lists -- --engines postgres --paths list500,bytes --runs 3 --duration 5
 */
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/paths.js';
import { createTestDatabaseUrl } from '../test/helpers/database.js';
import { ADMIN_TOKEN, benchApartment, benchServerEnv, median, must, spawnServer, stop } from './lib.js';

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    paths: { type: 'string', default: 'list500,list500w,list15k,publishable,bytes' },
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    /** A built checkout of the commit to compare with (its dist/src/server.js). */
    baseline: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const PATHS = new Set(args.paths.split(',').map((p) => p.trim()));
const BIG = 15_001;
const PAGE = 500;

interface Result {
  requests: { average: number };
  latency: { p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: Record<string, unknown>) => Promise<Result>;

/** One autocannon run; timeouts (10 s) and errors are counted, not thrown: the embedded database's figure is about them. */
async function load(url: string, opts: { key?: string; headers?: Record<string, string>; method?: string; body?: string; connections?: number }) {
  const r = await autocannon({
    url,
    connections: opts.connections ?? CONNECTIONS,
    duration: DURATION,
    timeout: 10,
    headers: { ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}), ...opts.headers, ...(opts.body ? { 'content-type': 'application/json' } : {}) },
    ...(opts.method ? { method: opts.method } : {}),
    ...(opts.body ? { body: opts.body, idReplacement: true } : {}),
  });
  if (r.non2xx > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers`);
  return { rps: r.requests.average, p99: r.latency.p99, failed: r.errors + r.timeouts };
}

interface Server {
  name: 'after' | 'before' | 'bare';
  base: string;
  child: ChildProcess;
  key?: string;
}

async function seed(base: string) {
  const created = await must(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Lists Bench' });
  const key: string = created.apiKey;
  const estate = await must(base, 'POST', '/api/v1/estate', key, { name: 'Bench Estate' });
  const building = async (name: string, n: number) => {
    const b = await must(base, 'POST', '/api/v1/building', key, { estateId: estate.id, name });
    for (let start = 0; start < n; start += 5000) {
      const apartments = Array.from({ length: Math.min(5000, n - start) }, (_, i) => benchApartment(start + i));
      await must(base, 'POST', '/api/v1/apartment/bulk', key, { buildingId: b.id, apartments });
    }
    return b.id as string;
  };
  const small = await building('Five hundred', PAGE);
  const big = PATHS.has('list15k') ? await building('Tower', BIG) : undefined;
  const pub = await must(base, 'POST', '/api/v1/api-keys', key, { name: 'site', scopes: ['publishable'] });
  const first = (await must(base, 'GET', `/api/v1/apartment?buildingId=${small}&limit=1`, key)).items[0].id as string;
  const firstBig = big ? ((await must(base, 'GET', `/api/v1/apartment?buildingId=${big}&limit=1`, key)).items[0].id as string) : undefined;
  return { key, publishable: pub.apiKey as string, small, big, first, firstBig };
}

const summary = (xs: number[]) => Math.round(median(xs));
const ratio = (a: number[], b: number[]) => Number(median(a.map((x, i) => x / b[i]!)).toFixed(2));

async function timedGet(url: string, key?: string): Promise<number> {
  const started = performance.now();
  // fetch asks for gzip and br by itself: the sequential figure is of the plain answer, as the bare route sends.
  const res = await fetch(url, { headers: { 'accept-encoding': 'identity', ...(key ? { authorization: `Bearer ${key}` } : {}) } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} -> ${res.status}`);
  return performance.now() - started;
}

async function benchEngine(engine: 'pglite' | 'postgres') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-lists-'));
  const pg = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const serverJs = (root: string) => [path.join(root, 'dist/src/server.js')];
  const envFor = (dir: string) => benchServerEnv(dir, ADMIN_TOKEN, pg?.url);
  const servers: Server[] = [];
  const out = (r: object) => process.stdout.write(`${JSON.stringify({ engine, runs: RUNS, durationS: DURATION, ...r })}\n`);
  try {
    const afterDir = path.join(dataDir, 'after');
    let after = await spawnServer(serverJs(projectRoot), envFor(afterDir), 180);
    const s = await seed(after.base);
    if (!pg) {
      // Each PGlite server holds its own data directory: copies of the seeded one.
      await stop(after.child);
      if (args.baseline) await cp(afterDir, path.join(dataDir, 'before'), { recursive: true });
      await cp(path.join(afterDir, 'pglite'), path.join(dataDir, 'bare'), { recursive: true });
      after = await spawnServer(serverJs(projectRoot), envFor(afterDir), 180);
    }
    servers.push({ name: 'after', ...after, key: s.key });
    if (args.baseline) servers.push({ name: 'before', ...(await spawnServer(serverJs(args.baseline), envFor(path.join(dataDir, 'before')), 180)), key: s.key });
    const bare = await spawnServer(
      ['--import', 'tsx', path.join(projectRoot, 'bench/lists-bare-server.ts')],
      pg ? { DATABASE_URL: pg.url } : { DB_DIR: path.join(dataDir, 'bare') },
      180,
    );
    servers.push({ name: 'bare', ...bare });
    const url500 = `/api/v1/apartment?buildingId=${s.small}&limit=${PAGE}`;
    const patch = (server: Server, id: string) =>
      fetch(`${server.base}/api/v1/apartment/${id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ description: `written ${Math.random()}` }),
      }).then((r) => r.arrayBuffer());

    /** Rounds over the servers in turn; `run` measures one server once. */
    async function rounds(label: string, run: (server: Server) => Promise<{ rps: number; p99: number; failed: number }>) {
      const by = new Map<string, Array<{ rps: number; p99: number; failed: number }>>(servers.map((sv) => [sv.name, []]));
      for (const sv of servers) await run(sv); // warm-up
      for (let i = 0; i < RUNS; i++) for (const sv of servers) by.get(sv.name)!.push(await run(sv));
      const rps = (name: string) => by.get(name)?.map((r) => r.rps) ?? [];
      const fig: Record<string, unknown> = { path: label };
      for (const [name, rs] of by) {
        fig[`${name}ReqPerSec`] = summary(rs.map((r) => r.rps));
        fig[`${name}P99Ms`] = summary(rs.map((r) => r.p99));
        fig[`${name}Failed`] = rs.reduce((n, r) => n + r.failed, 0);
      }
      fig.afterVsBare = ratio(rps('after'), rps('bare'));
      if (args.baseline) fig.beforeVsBare = ratio(rps('before'), rps('bare'));
      out(fig);
    }

    if (PATHS.has('list500')) {
      await rounds(`GET /apartment?buildingId=&limit=${PAGE}, ${CONNECTIONS} connections, nothing written`, (sv) => load(sv.base + url500, { key: sv.key }));
    }
    if (PATHS.has('list500w')) {
      await rounds(`GET /apartment?buildingId=&limit=${PAGE}, ${CONNECTIONS} connections, one writer PATCHing back to back`, async (sv) => {
        // The bare route has no writes of its own: on PostgreSQL the writer writes through the new server
        // into the same database; on PGlite the bare route's database is a copy nobody writes.
        const target = sv.name === 'bare' ? (pg ? servers[0]! : undefined) : sv;
        let writing = target !== undefined;
        let writes = 0;
        const writer = (async () => {
          while (writing) {
            await patch(target!, s.first);
            writes++;
          }
        })();
        const r = await load(sv.base + url500, { key: sv.key });
        writing = false;
        await writer;
        return { ...r, writes };
      });
    }
    if (PATHS.has('list15k') && s.big && s.firstBig) {
      const url = `/api/v1/apartment?buildingId=${s.big}`;
      const kept: Record<string, number[]> = Object.fromEntries(servers.map((sv) => [sv.name, []]));
      const written: Record<string, number[]> = Object.fromEntries(servers.map((sv) => [sv.name, []]));
      for (let i = 0; i <= RUNS; i++) {
        for (const sv of servers) {
          const k = await timedGet(sv.base + url, sv.key);
          if (sv.name !== 'bare') await patch(sv, s.firstBig);
          else if (pg) await patch(servers[0]!, s.firstBig);
          const w = await timedGet(sv.base + url, sv.key);
          if (i === 0) continue; // warm-up
          kept[sv.name]!.push(k);
          written[sv.name]!.push(w);
        }
      }
      const fig: Record<string, unknown> = { path: `GET /apartment?buildingId= of ${BIG}, sequential; ms` };
      for (const sv of servers) {
        fig[`${sv.name}KeptMs`] = summary(kept[sv.name]!);
        fig[`${sv.name}AfterWriteMs`] = summary(written[sv.name]!);
      }
      fig.afterKeptVsBare = ratio(kept.after!, kept.bare!);
      fig.afterWriteVsBare = ratio(written.after!, written.bare!);
      if (args.baseline) fig.beforeWriteVsBare = ratio(written.before!, written.bare!);
      out(fig);
    }
    const app = servers[0]!;
    const pairs = async (label: string, a: () => ReturnType<typeof load>, b: () => ReturnType<typeof load>) => {
      await a();
      await b();
      const ra: number[] = [];
      const rb: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        ra.push((await a()).rps);
        rb.push((await b()).rps);
      }
      return { path: label, aReqPerSec: summary(ra), bReqPerSec: summary(rb), pairedRatio: ratio(ra, rb) };
    };
    const encoded = { 'accept-encoding': 'br, gzip' };
    if (PATHS.has('publishable')) {
      out(
        await pairs(
          `publishable key (a) vs read key (b), ${url500.replace(/=[0-9a-f-]{36}/, '=…')}, Accept-Encoding: br, gzip`,
          () => load(app.base + url500, { key: s.publishable, headers: encoded }),
          () => load(app.base + url500, { key: s.key, headers: encoded }),
        ),
      );
    }
    if (PATHS.has('bytes')) {
      const size = async (headers: Record<string, string>) => {
        const res = await fetch(app.base + url500, { headers: { authorization: `Bearer ${s.key}`, ...headers } });
        // fetch decodes; the bytes on the wire are the Content-Length.
        await res.arrayBuffer();
        return { bytes: Number(res.headers.get('content-length')), encoding: res.headers.get('content-encoding') };
      };
      const compressed = await size(encoded);
      const plain = await size({ 'accept-encoding': 'identity' });
      out({
        ...(await pairs(
          'read key 500-list, Accept-Encoding: br, gzip (a) vs none (b)',
          () => load(app.base + url500, { key: s.key, headers: encoded }),
          () => load(app.base + url500, { key: s.key }),
        )),
        encoding: compressed.encoding,
        compressedBytes: compressed.bytes,
        plainBytes: plain.bytes,
        bytesRatio: Number((compressed.bytes / plain.bytes).toFixed(3)),
      });
    }
  } finally {
    for (const sv of servers) await stop(sv.child);
    await pg?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (!args['no-build']) execFileSync('npm', ['run', 'build', '--silent'], { cwd: projectRoot, stdio: 'inherit' });
process.stdout.write(`${JSON.stringify({ loadavg: os.loadavg().map((l) => Number(l.toFixed(1))), cpus: os.cpus().length })}\n`);
for (const engine of args.engines.split(',').map((e) => e.trim())) {
  if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`unknown engine ${engine}`);
  await benchEngine(engine);
}
process.stdout.write(`${JSON.stringify({ loadavg: os.loadavg().map((l) => Number(l.toFixed(1))) })}\n`);
