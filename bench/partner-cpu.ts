/**
 * Where the CPU of one `POST /api/v1/apartment` goes, against the bare INSERT route of
 * bench/partner-bare-server.ts, on PostgreSQL: CPU time (user + system, from /proc) per request of the
 * server process, of every PostgreSQL process, and of the load generator, over a fixed number of
 * requests at 10 connections, app and bare route alternating. bench/partner.ts measures the throughput
 * ratio; this says which side of the socket a difference is on (Linux only).
 *
 *   npx tsx bench/partner-cpu.ts [--rounds 5] [--requests 10000]      # after npm run build
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/paths.js';
import { createTestDatabaseUrl } from '../test/helpers/database.js';
import { ADMIN_TOKEN, type CannonResult, TICK_US, benchServerEnv, median, must, postgresPids, serverArgs, spawnServer, stop, ticks } from './lib.js';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, requests: { type: 'string', default: '10000' } } });
const ROUNDS = Number(args.rounds);
const REQUESTS = Number(args.requests);
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: Record<string, unknown>) => Promise<CannonResult>;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-cpu-'));
const pg = await createTestDatabaseUrl();
const app = await spawnServer(serverArgs(undefined, 'postgres'), benchServerEnv(dataDir, ADMIN_TOKEN, pg.url));
let bare: Awaited<ReturnType<typeof spawnServer>> | undefined;
try {
  const created = await must(app.base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Bench Org' });
  const estate = await must(app.base, 'POST', '/api/v1/estate', created.apiKey, { name: 'Bench Estate' });
  const building = await must(app.base, 'POST', '/api/v1/building', created.apiKey, { estateId: estate.id, name: 'Bench Building' });
  bare = await spawnServer(['--import', 'tsx', path.join(projectRoot, 'bench/partner-bare-server.ts')], {
    ORGANIZATION_ID: created.organization.id,
    ESTATE_ID: estate.id,
    DATABASE_URL: pg.url,
  });
  const body = JSON.stringify({
    buildingId: building.id,
    name: 'Unit [<id>]',
    priceCents: 40_000_000,
    description: 'Two rooms, south-facing balcony, storage in the basement.',
    apartmentData: { area: 52, rooms: 2, floor: 3, bathrooms: 1, exposures: ['S', 'W'] },
  });
  const targets = [
    { name: 'app', server: app, key: created.apiKey as string | undefined },
    { name: 'bare', server: bare, key: undefined },
  ];
  const samples: Record<string, Array<{ server: number; postgres: number; client: number }>> = { app: [], bare: [] };
  for (let round = 0; round <= ROUNDS; round++) {
    for (const { name, server, key } of targets) {
      const run = (amount: number) =>
        autocannon({
          url: `${server.base}/api/v1/apartment`,
          connections: 10,
          amount,
          method: 'POST',
          body,
          idReplacement: true,
          headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        });
      const pid = server.child.pid!;
      const before = { server: ticks([pid]), postgres: ticks(postgresPids()), client: process.cpuUsage() };
      const result = await run(round === 0 ? 2000 : REQUESTS); // round 0 warms both up
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      if (round === 0) continue;
      const client = process.cpuUsage(before.client);
      samples[name]!.push({
        server: ((ticks([pid]) - before.server) * TICK_US) / REQUESTS,
        postgres: ((ticks(postgresPids()) - before.postgres) * TICK_US) / REQUESTS,
        client: (client.user + client.system) / REQUESTS,
      });
    }
  }
  for (const [name, runs] of Object.entries(samples)) {
    const m = (k: 'server' | 'postgres' | 'client') => Math.round(median(runs.map((r) => r[k])));
    process.stdout.write(
      `${JSON.stringify({ route: name, rounds: ROUNDS, requests: REQUESTS, serverUsPerRequest: m('server'), postgresUsPerRequest: m('postgres'), loadGeneratorUsPerRequest: m('client') })}\n`,
    );
  }
} finally {
  if (bare) await stop(bare.child);
  await stop(app.child);
  await pg.drop();
  await rm(dataDir, { recursive: true, force: true });
}
