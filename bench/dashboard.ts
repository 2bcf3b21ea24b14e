/**
 * The dashboard (issue 35) on the real server (dist/src/server.js), one organization with an estate of
 * 2,000 apartments in four buildings, every measure in one process run:
 * - the apartments screen (`GET /dashboard/o/{org}/apartments?estateId=`, all 2,000 rows rendered on the
 *   server) against `GET /api/v1/apartment?limit=500` x 4 (offset 0…1500), alternating, each read to its
 *   last byte; the median of the paired ratios (target: the screen <= 2x);
 * - the sign-in POST (Argon2id verify, a session written), one at a time: the median (target < 250 ms);
 * - 20 sign-ins at once, in waves, while one client GETs `/api/v1/estate/{id}` in a loop: that GET's p99
 *   (target <= 50 ms); beside it the same GET's p99 with no sign-in running, measured before and after the
 *   waves for as long as they took, so the host's own load weighs on both alike.
 * The server is a child process (dist/src/server.js); this process only sends requests.
 * Successful sign-ins are never limited (only failures are counted); RATE_LIMIT_*_MAX are raised.
 *
 *   npm run bench:dashboard                               # PGlite, then PostgreSQL (fresh database)
 *   npm run bench:dashboard -- --engines pglite --runs 15 --signins 30 --waves 10
 *   npm run bench:dashboard -- --engines pglite --profile /tmp/prof && npx tsx bench/cpu-top.ts /tmp/prof/pglite
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createTestDatabaseUrl } from '../test/helpers/database.js';
import { ADMIN_TOKEN, benchApartment, benchServerEnv, median, must, serverArgs, spawnServer, stop } from './lib.js';

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    runs: { type: 'string', default: '15' },
    signins: { type: 'string', default: '30' },
    waves: { type: 'string', default: '10' },
    parallel: { type: 'string', default: '20' },
    /** A directory: the server runs under `node --cpu-prof` and writes its profile there (bench/cpu-top.ts). */
    profile: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const SIGN_INS = Number(args.signins);
const WAVES = Number(args.waves);
const PARALLEL = Number(args.parallel);
const APARTMENTS = 2000;
const PASSWORD = 'bench harbour lantern violet 7';
const EMAIL = 'bench-admin@dashboard.example';

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};

/** One request read to its last byte; its time in ms. Anything but the expected status stops the benchmark. */
async function timed(url: string, init: RequestInit, expected: number): Promise<{ ms: number; res: Response; text: string }> {
  const started = performance.now();
  const res = await fetch(url, { redirect: 'manual', ...init });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== expected) throw new Error(`${init.method ?? 'GET'} ${url} -> ${res.status} ${text.slice(0, 300)}`);
  return { ms, res, text };
}

async function benchEngine(engine: 'pglite' | 'postgres') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-dashboard-'));
  const pg = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const app = await spawnServer(serverArgs(args.profile, engine), benchServerEnv(dataDir, ADMIN_TOKEN, pg?.url), 180);
  try {
    const base = app.base;
    const origin = { origin: base };
    const { organization, apiKey: key } = await must(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Bench Dashboard' });
    const setup = await must(base, 'POST', '/api/v1/estate/setup', key, { name: 'Bench Lindenpark', buildingName: 'Tower A' });
    const buildings = [setup.building.id as string];
    for (const name of ['Tower B', 'Tower C', 'Tower D'])
      buildings.push((await must(base, 'POST', '/api/v1/building', key, { name, estateId: setup.estate.id })).id);
    for (let b = 0; b < buildings.length; b++) {
      const apartments = Array.from({ length: APARTMENTS / buildings.length }, (_, i) => benchApartment(b * 1000 + i));
      await must(base, 'POST', '/api/v1/apartment/bulk', key, { buildingId: buildings[b], apartments });
    }
    // The first admin: invited by the operator, the invitation accepted through its form (a session cookie).
    const invitation = await must(base, 'POST', `/api/v1/admin/organizations/${organization.id}/invitations`, ADMIN_TOKEN, { email: EMAIL, role: 'admin' });
    const accepted = await timed(
      `${base}${new URL(invitation.url).pathname}`,
      {
        method: 'POST',
        headers: { ...origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ firstName: 'Bench', lastName: 'Admin', password: PASSWORD }).toString(),
      },
      303,
    );
    const cookie = (accepted.res.headers.get('set-cookie') ?? '').split(';')[0]!;
    const screenUrl = `${base}/dashboard/o/${organization.id}/apartments?estateId=${setup.estate.id}`;
    const screen = () => timed(screenUrl, { headers: { cookie } }, 200);
    const api = async () => {
      let ms = 0;
      let rows = 0;
      for (let offset = 0; offset < APARTMENTS; offset += 500) {
        const page = await timed(`${base}/api/v1/apartment?limit=500&offset=${offset}`, { headers: { authorization: `Bearer ${key}` } }, 200);
        ms += page.ms;
        rows += (JSON.parse(page.text) as { items: unknown[] }).items.length;
      }
      return { ms, rows };
    };
    const first = await screen();
    const shownRows = first.text.match(/<th scope="row">/g)?.length ?? 0;
    if (shownRows !== APARTMENTS) throw new Error(`the screen shows ${shownRows} rows, not ${APARTMENTS}`);
    if ((await api()).rows !== APARTMENTS) throw new Error(`the API pages hold other than ${APARTMENTS} rows`);
    // Warm-up, then alternating pairs.
    for (let i = 0; i < 3; i++) {
      await screen();
      await api();
    }
    const screenMs: number[] = [];
    const apiMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      screenMs.push((await screen()).ms);
      apiMs.push((await api()).ms);
    }

    const signInBody = new URLSearchParams({ email: EMAIL, password: PASSWORD }).toString();
    const signIn = () =>
      timed(
        `${base}/dashboard/sign-in`,
        { method: 'POST', headers: { ...origin, 'content-type': 'application/x-www-form-urlencoded' }, body: signInBody },
        303,
      );
    for (let i = 0; i < 3; i++) await signIn();
    const signInMs: number[] = [];
    for (let i = 0; i < SIGN_INS; i++) signInMs.push((await signIn()).ms);

    // One client GETs an estate in a loop while `during` runs; every latency of that GET.
    const estateUrl = `${base}/api/v1/estate/${setup.estate.id}`;
    const probe = async (during: () => Promise<unknown>) => {
      const latencies: number[] = [];
      let running = true;
      const loop = (async () => {
        while (running) latencies.push((await timed(estateUrl, { headers: { authorization: `Bearer ${key}` } }, 200)).ms);
      })();
      await during();
      running = false;
      await loop;
      return latencies;
    };
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // The quiet GET before and after the waves, as long in all as the waves: the host's load (other processes) moves both alike.
    const quiet = await probe(() => pause(3000));
    const waveMs: number[] = [];
    const busyStarted = performance.now();
    const busy = await probe(async () => {
      for (let w = 0; w < WAVES; w++) {
        const started = performance.now();
        await Promise.all(Array.from({ length: PARALLEL }, () => signIn()));
        waveMs.push(performance.now() - started);
      }
    });
    quiet.push(...(await probe(() => pause(Math.max(0, performance.now() - busyStarted - 3000)))));

    const summary = {
      engine,
      apartments: APARTMENTS,
      screenMedianMs: round(median(screenMs)),
      api4x500MedianMs: round(median(apiMs)),
      screenPairedRatio: round(median(screenMs.map((s, i) => s / apiMs[i]!)), 2),
      screenBytes: Buffer.byteLength(first.text),
      signInMedianMs: round(median(signInMs)),
      signInP90Ms: round(quantile(signInMs, 0.9)),
      parallelSignIns: PARALLEL,
      waveMedianMs: round(median(waveMs)),
      concurrentGetP99Ms: round(quantile(busy, 0.99)),
      concurrentGetMedianMs: round(median(busy)),
      concurrentGetSamples: busy.length,
      quietGetP99Ms: round(quantile(quiet, 0.99)),
      quietGetMedianMs: round(median(quiet)),
      quietGetSamples: quiet.length,
      runs: RUNS,
      signIns: SIGN_INS,
      waves: WAVES,
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    process.stdout.write(
      `${engine}: the screen ${summary.screenPairedRatio <= 2 ? 'meets' : 'MISSES'} <= 2x the API's 4 pages; sign-in ${
        summary.signInMedianMs < 250 ? 'meets' : 'MISSES'
      } < 250 ms median; the GET's p99 during ${PARALLEL} parallel sign-ins ${summary.concurrentGetP99Ms <= 50 ? 'meets' : 'MISSES'} <= 50 ms\n`,
    );
  } finally {
    await stop(app.child);
    await pg?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

for (const engine of (args.engines ?? '').split(',') as Array<'pglite' | 'postgres'>) await benchEngine(engine);
