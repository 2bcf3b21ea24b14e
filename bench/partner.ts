/**
 * The partner hot path against bare Fastify routes that run one statement on the same engine, in the
 * same run (bench/partner-bare-server.ts). Each figure is a ratio, so runs on a shared machine
 * and on different commits compare.
 *
 * - get:    `GET /api/v1/apartment/{id}` with a key vs one primary-key SELECT (50 connections)
 * - create: `POST /api/v1/apartment` with a key vs one INSERT of the same row (10 connections)
 * - list:   `GET /api/v1/apartment?buildingId=` of 15,000 apartments vs one json_agg statement (sequential)
 * - mixed:  anonymous gallery reads (10 connections) while 4 clients create apartments, vs the same
 *           reads with no writers (the ratio the PGlite target is about; runs on either engine)
 *
 *   npm run bench:partner                                   # builds, every path, PGlite then PostgreSQL
 *   npm run bench:partner -- --engines pglite --paths get,list --runs 5 --duration 8
 *   npm run bench:read                                      # the get path only
 *   npm run bench:partner -- --paths get --runs 1 --cpu-prof /tmp/prof && npx tsx bench/cpu-top.ts /tmp/prof/postgres
 */
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/paths.js';
import { createTestDatabaseUrl } from '../test/helpers/database.js';
import { ADMIN_TOKEN, type CannonResult, PNG, benchServerEnv, cannon, median, must, serverArgs, spawnServer, stop } from './lib.js';

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    paths: { type: 'string', default: 'get,create,list,mixed' },
    runs: { type: 'string', default: '5' },
    duration: { type: 'string', default: '8' },
    'list-size': { type: 'string', default: '15000' },
    'no-build': { type: 'boolean', default: false },
    /** Profiles the real server (node --cpu-prof) into this directory; summarise with bench/cpu-top.ts. */
    'cpu-prof': { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const DURATION = Number(args.duration);
const LIST_SIZE = Number(args['list-size']);
const PATHS = new Set(args.paths.split(',').map((p) => p.trim()));

const apartmentBody = (buildingId: string, name: string) => ({
  buildingId,
  name,
  priceCents: 40_000_000,
  description: 'Two rooms, south-facing balcony, storage in the basement.',
  apartmentData: { area: 52, rooms: 2, floor: 3, bathrooms: 1, exposures: ['S', 'W'] },
});

interface Seeded {
  key: string;
  organizationId: string;
  estateId: string;
  apartmentId: string;
  /** The building of the one apartment read by id and of the writes. */
  buildingId: string;
  /** A building holding LIST_SIZE apartments. */
  listBuildingId: string;
  gallery: string;
}

async function seed(base: string): Promise<Seeded> {
  const created = await must(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Bench Org' });
  const key: string = created.apiKey;
  const estate = await must(base, 'POST', '/api/v1/estate', key, { name: 'Bench Estate' });
  const building = await must(base, 'POST', '/api/v1/building', key, { estateId: estate.id, name: 'Bench Building' });
  const apartment = await must(base, 'POST', '/api/v1/apartment', key, apartmentBody(building.id, 'Unit 1'));
  const listBuilding = await must(base, 'POST', '/api/v1/building', key, { estateId: estate.id, name: 'Tower' });
  if (PATHS.has('list')) {
    for (let start = 0; start < LIST_SIZE; start += 5000) {
      const n = Math.min(5000, LIST_SIZE - start);
      const apartments = Array.from({ length: n }, (_, i) => {
        const { buildingId: _b, ...item } = apartmentBody(listBuilding.id, `T-${start + i + 1}`);
        return item;
      });
      await must(base, 'POST', '/api/v1/apartment/bulk', key, { buildingId: listBuilding.id, apartments });
    }
  }
  const gallery = `/api/v1/estates/${estate.id}/gallery`;
  await must(base, 'PUT', gallery, key, { enabled: true });
  for (let i = 0; i < 20; i++) {
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), `photo-${i}.png`);
    const res = await fetch(`${base}/api/v1/asset/upload`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    if (res.status !== 201) throw new Error(`upload -> ${res.status} ${await res.text()}`);
    const asset = (await res.json()) as { id: string };
    await must(base, 'POST', `${gallery}/items`, key, { assetId: asset.id, caption: `Photo ${i + 1}` });
  }
  return {
    key,
    organizationId: created.organization.id,
    estateId: estate.id,
    apartmentId: apartment.id,
    buildingId: building.id,
    listBuildingId: listBuilding.id,
    gallery,
  };
}

/** Alternating runs of the app and the bare route; medians, and the median of the paired ratios. */
async function paired(name: string, app: () => Promise<CannonResult>, bare: () => Promise<CannonResult>) {
  await app(); // warm-up: JIT, pools, caches
  await bare();
  const appRuns: CannonResult[] = [];
  const bareRuns: CannonResult[] = [];
  for (let i = 0; i < RUNS; i++) {
    appRuns.push(await app());
    bareRuns.push(await bare());
  }
  const rps = (r: CannonResult) => r.requests.average;
  return {
    path: name,
    appReqPerSec: Math.round(median(appRuns.map(rps))),
    bareReqPerSec: Math.round(median(bareRuns.map(rps))),
    pairedRatio: Number(median(appRuns.map((r, i) => rps(r) / rps(bareRuns[i]!))).toFixed(3)),
    appP99Ms: median(appRuns.map((r) => r.latency.p99)),
    bareP99Ms: median(bareRuns.map((r) => r.latency.p99)),
    pairedP99Ratio: Number(median(appRuns.map((r, i) => r.latency.p99 / Math.max(bareRuns[i]!.latency.p99, 1))).toFixed(2)),
  };
}

/** Milliseconds of one GET that reads the whole answer. */
async function timedGet(url: string, key?: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const res = await fetch(url, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} -> ${res.status}`);
  return { ms: performance.now() - started, bytes: body.byteLength };
}

async function benchEngine(engine: 'pglite' | 'postgres') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-partner-'));
  const pg = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const env = benchServerEnv(dataDir, ADMIN_TOKEN, pg?.url);
  let app = await spawnServer(serverArgs(undefined, engine), env);
  let bare: { child: ChildProcess; base: string } | undefined;
  try {
    const s = await seed(app.base);
    if (args['cpu-prof']) {
      // The profile covers the measured paths only: the seeded data stays, the server restarts profiled.
      await stop(app.child);
      app = await spawnServer(serverArgs(args['cpu-prof'], engine), env);
    }
    const listUrl = `/api/v1/apartment?buildingId=${s.listBuildingId}`;
    const readUrl = `/api/v1/apartment/${s.apartmentId}`;
    const apartmentsFile = path.join(dataDir, 'apartments.json');
    if (!pg) {
      const list = PATHS.has('list') ? (await must(app.base, 'GET', listUrl, s.key)).items : [];
      await writeFile(apartmentsFile, JSON.stringify([...list, await must(app.base, 'GET', readUrl, s.key)]));
    }
    bare = await spawnServer(['--import', 'tsx', path.join(projectRoot, 'bench/partner-bare-server.ts')], {
      ORGANIZATION_ID: s.organizationId,
      ESTATE_ID: s.estateId,
      ...(pg ? { DATABASE_URL: pg.url } : { DB_DIR: path.join(dataDir, 'bare-db'), APARTMENTS_FILE: apartmentsFile }),
    });
    const results: unknown[] = [];
    const load = (connections: number) => ({ connections, duration: DURATION });

    if (PATHS.has('get')) {
      if ((await must(bare.base, 'GET', readUrl, undefined)).id !== s.apartmentId) throw new Error('the bare route does not read the apartment');
      results.push(
        await paired(
          'GET /apartment/{id}, 50 connections',
          () => cannon(app.base + readUrl, { ...load(50), key: s.key }),
          () => cannon(bare!.base + readUrl, load(50)),
        ),
      );
    }
    if (PATHS.has('create')) {
      const body = apartmentBody(s.buildingId, 'Unit [<id>]');
      const post = { method: 'POST', body };
      results.push(
        await paired(
          'POST /apartment, 10 connections',
          () => cannon(`${app.base}/api/v1/apartment`, { ...load(10), ...post, key: s.key }),
          () => cannon(`${bare!.base}/api/v1/apartment`, { ...load(10), ...post }),
        ),
      );
    }
    if (PATHS.has('list')) {
      const appTimes: number[] = [];
      const bareTimes: number[] = [];
      let sizes = { app: 0, bare: 0 };
      for (let i = 0; i < RUNS + 1; i++) {
        const a = await timedGet(app.base + listUrl, s.key);
        const b = await timedGet(bare.base + listUrl);
        sizes = { app: a.bytes, bare: b.bytes };
        if (i > 0) {
          appTimes.push(a.ms);
          bareTimes.push(b.ms);
        }
      }
      const appMs = median(appTimes);
      const bareMs = median(bareTimes);
      results.push({
        path: `GET /apartment?buildingId= of ${LIST_SIZE}`,
        appMs: Math.round(appMs),
        bareMs: Math.round(bareMs),
        ratio: Number((appMs / bareMs).toFixed(2)),
        pairedRatio: Number(median(appTimes.map((t, i) => t / bareTimes[i]!)).toFixed(2)),
        appBytes: sizes.app,
        bareBytes: sizes.bare,
      });
    }
    if (PATHS.has('mixed')) {
      const read = () => cannon(app.base + s.gallery, load(10));
      const writes = () => cannon(`${app.base}/api/v1/apartment`, { ...load(4), method: 'POST', body: apartmentBody(s.buildingId, 'W [<id>]'), key: s.key });
      await read();
      const idle: number[] = [];
      const busy: number[] = [];
      const writesPerSec: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        idle.push((await read()).requests.average);
        const [r, w] = await Promise.all([read(), writes()]);
        busy.push(r.requests.average);
        writesPerSec.push(w.requests.average);
      }
      results.push({
        path: 'anonymous gallery read, 10 connections, with 4 writers vs none',
        idleReqPerSec: Math.round(median(idle)),
        withWritersReqPerSec: Math.round(median(busy)),
        pairedRatio: Number(median(busy.map((b, i) => b / idle[i]!)).toFixed(3)),
        writesPerSec: Math.round(median(writesPerSec)),
      });
    }
    for (const r of results) process.stdout.write(`${JSON.stringify({ engine, runs: RUNS, durationS: DURATION, ...(r as object) })}\n`);
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
