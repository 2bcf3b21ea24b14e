/**
 * Webhook delivery on the real server (built `dist/src/server.js`), per engine:
 *
 * 1. Delivery: 10,000 `apartment.created` events (single-apartment creates by WRITERS concurrent
 *    clients) to one endpoint on a local receiver. Events per second from the first write to the
 *    last receipt, and latency from emission (the event's `timestamp`, taken inside the committing
 *    transaction) to receipt: median and p99.
 * 1b. A burst: the same number of events committed by bulk creates of 1,000 (one transaction each), then
 *    drained: events per second from the first commit to the last receipt, and p99 latency.
 * 2. Write latency: the same creates for `--duration` seconds with no endpoint, then with 5 active
 *    endpoints (all events) on the receiver, alternating `--runs` times; medians of requests per
 *    second and p99 latency, and their ratios.
 *
 *   npm run bench:webhooks                                   # builds, PGlite then PostgreSQL
 *   npm run bench:webhooks -- --engines pglite --events 10000 --runs 3 --duration 8
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/paths.js';
import { createTestDatabaseUrl } from '../test/helpers/database.js';
import { ADMIN_TOKEN, benchServerEnv, median, must, spawnServer, stop } from './lib.js';

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    events: { type: 'string', default: '10000' },
    writers: { type: 'string', default: '8' },
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '8' },
    'writes-only': { type: 'boolean', default: false },
  },
});
const EVENTS = Number(args.events);
const WRITERS = Number(args.writers);
const RUNS = Number(args.runs);
const DURATION_MS = Number(args.duration) * 1000;

/** A receiver that answers 204 at once and notes when each event arrived and when it was emitted. */
async function startReceiver() {
  const arrivals: Array<{ path: string; latencyMs: number; at: number }> = [];
  let waiter: (() => void) | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
      arrivals.push({ path: req.url ?? '/', latencyMs: at - Date.parse(body.timestamp), at });
      // /hold-… never answers in time: the sender's slots stay busy, so no delivery work runs.
      if (req.url?.startsWith('/hold')) setTimeout(() => res.writeHead(204).end(), 60_000).unref();
      else res.writeHead(204).end();
      waiter?.();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    async until(count: (a: typeof arrivals) => boolean, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      while (!count(arrivals)) {
        if (Date.now() > deadline) throw new Error(`receiver: ${arrivals.length} arrivals, timed out`);
        await new Promise<void>((r) => {
          waiter = r;
          setTimeout(r, 200);
        });
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

let nameSeq = 0;
/** WRITERS clients creating apartments until `stopWhen` says so; per-request latencies in ms. */
async function write(base: string, key: string, buildingId: string, stopWhen: (done: number) => boolean) {
  const latencies: number[] = [];
  let done = 0;
  const started = performance.now();
  const writer = async () => {
    while (!stopWhen(done)) {
      done++;
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v1/apartment`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ buildingId, name: `Unit ${++nameSeq}`, priceCents: 30_000_000, apartmentData: { area: 48, rooms: 2 } }),
      });
      await res.text();
      if (res.status !== 201) throw new Error(`create answered ${res.status}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  const seconds = (performance.now() - started) / 1000;
  return { latencies, perSecond: latencies.length / seconds };
}

async function benchEngine(engine: 'pglite' | 'postgres') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-webhooks-'));
  const pg = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const receiver = await startReceiver();
  const env = { ...benchServerEnv(dataDir, ADMIN_TOKEN, pg?.url), ALLOW_PRIVATE_URLS: 'true', ...(pg ? { DATABASE_DIRECT_URL: pg.directUrl } : {}) };
  const app = await spawnServer([path.join(projectRoot, 'dist/src/server.js')], env);
  try {
    const newBuilding = async () => {
      const { apiKey: key } = await must(app.base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: `Bench ${Date.now()}` });
      const estate = await must(app.base, 'POST', '/api/v1/estate', key, { name: 'Bench Estate' });
      const building = await must(app.base, 'POST', '/api/v1/building', key, { estateId: estate.id, name: 'Bench Building' });
      return { key: key as string, buildingId: building.id as string };
    };

    if (args['writes-only']) return { engine, writers: WRITERS, writes: await writeCost() };
    // 1. Delivery of EVENTS events to one endpoint.
    const one = await newBuilding();
    await must(app.base, 'POST', '/api/v1/webhooks', one.key, { url: `${receiver.url}/one`, events: ['apartment.created'] });
    const started = Date.now();
    await write(app.base, one.key, one.buildingId, (done) => done >= EVENTS);
    await receiver.until((a) => a.filter((x) => x.path === '/one').length >= EVENTS, 600_000);
    const delivered = receiver.arrivals.filter((x) => x.path === '/one');
    const last = Math.max(...delivered.map((x) => x.at));
    const delivery = {
      events: delivered.length,
      eventsPerSecond: Math.round(delivered.length / ((last - started) / 1000)),
      latencyMedianMs: percentile(
        delivered.map((x) => x.latencyMs),
        50,
      ),
      latencyP99Ms: percentile(
        delivered.map((x) => x.latencyMs),
        99,
      ),
    };

    // 1b. A burst: EVENTS events committed by bulk creates of 1,000, drained by the worker alone.
    const burst = await newBuilding();
    await must(app.base, 'POST', '/api/v1/webhooks', burst.key, { url: `${receiver.url}/burst`, events: ['apartment.created'] });
    const burstStarted = Date.now();
    for (let b = 0; b * 1000 < EVENTS; b++) {
      const apartments = Array.from({ length: Math.min(1000, EVENTS - b * 1000) }, (_, i) => ({ name: `Burst ${b}-${i}` }));
      await must(app.base, 'POST', '/api/v1/apartment/bulk', burst.key, { buildingId: burst.buildingId, apartments });
    }
    const committed = Date.now();
    await receiver.until((a) => a.filter((x) => x.path === '/burst').length >= EVENTS, 600_000);
    const drained = receiver.arrivals.filter((x) => x.path === '/burst');
    const burstLast = Math.max(...drained.map((x) => x.at));
    const drain = {
      events: drained.length,
      commitSeconds: +((committed - burstStarted) / 1000).toFixed(1),
      eventsPerSecond: Math.round(drained.length / ((burstLast - burstStarted) / 1000)),
      latencyP99Ms: percentile(
        drained.map((x) => x.latencyMs),
        99,
      ),
    };

    return { engine, writers: WRITERS, delivery, drain, writes: await writeCost() };

    // 2. Write latency without endpoints, with 5 active endpoints, and with 5 endpoints whose receiver holds
    // every request (the worker's slots stay busy, so what remains is the cost of enqueueing), alternating.
    async function writeCost() {
      const bare = await newBuilding();
      const hooked = await newBuilding();
      const held = await newBuilding();
      for (let i = 0; i < 5; i++) {
        await must(app.base, 'POST', '/api/v1/webhooks', hooked.key, { url: `${receiver.url}/five-${i}`, events: ['*'] });
        await must(app.base, 'POST', '/api/v1/webhooks', held.key, { url: `${receiver.url}/hold-${i}`, events: ['*'] });
      }
      const timed = (target: { key: string; buildingId: string }) => {
        const until = performance.now() + DURATION_MS;
        return write(app.base, target.key, target.buildingId, () => performance.now() >= until);
      };
      await timed(bare); // warm-up
      await timed(hooked);
      const without: Array<{ perSecond: number; p99: number; p50: number }> = [];
      const withFive: typeof without = [];
      const withoutHeld: typeof without = [];
      const enqueueOnly: typeof without = [];
      const pairs = async (pair: ReadonlyArray<readonly [typeof bare, typeof without]>) => {
        for (let r = 0; r < RUNS; r++) {
          for (const [target, into] of pair) {
            const run = await timed(target);
            into.push({ perSecond: run.perSecond, p99: percentile(run.latencies, 99), p50: percentile(run.latencies, 50) });
          }
        }
      };
      await pairs([
        [bare, without],
        [hooked, withFive],
      ]);
      // Last, since held requests keep the worker's slots busy for the timeout after each run.
      await timed(held);
      await pairs([
        [bare, withoutHeld],
        [held, enqueueOnly],
      ]);
      const m = (xs: typeof without, k: 'perSecond' | 'p99' | 'p50') => median(xs.map((x) => x[k]));
      return {
        withoutPerSecond: Math.round(m(without, 'perSecond')),
        withFivePerSecond: Math.round(m(withFive, 'perSecond')),
        enqueueOnlyPerSecond: Math.round(m(enqueueOnly, 'perSecond')),
        withoutP50Ms: +m(without, 'p50').toFixed(1),
        withFiveP50Ms: +m(withFive, 'p50').toFixed(1),
        enqueueOnlyP50Ms: +m(enqueueOnly, 'p50').toFixed(1),
        withoutP99Ms: +m(without, 'p99').toFixed(1),
        withFiveP99Ms: +m(withFive, 'p99').toFixed(1),
        enqueueOnlyP99Ms: +m(enqueueOnly, 'p99').toFixed(1),
        throughputRatio: +(m(withFive, 'perSecond') / m(without, 'perSecond')).toFixed(3),
        enqueueThroughputRatio: +(m(enqueueOnly, 'perSecond') / m(withoutHeld, 'perSecond')).toFixed(3),
        p99Ratio: +(m(withFive, 'p99') / m(without, 'p99')).toFixed(3),
        enqueueP99Ratio: +(m(enqueueOnly, 'p99') / m(withoutHeld, 'p99')).toFixed(3),
      };
    }
  } finally {
    await stop(app.child);
    await receiver.close();
    await pg?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

for (const engine of args.engines.split(',')) {
  if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`unknown engine ${engine}`);
  console.log(JSON.stringify(await benchEngine(engine)));
}
