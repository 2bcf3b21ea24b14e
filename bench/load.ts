/**
 * Mixed load: the partner workload (creates, patches, lists) and anonymous add-on reads at the same
 * time against a real server process, then a consistency check (every acknowledged write is there,
 * positions contiguous).
 *
 *   npm run bench:load                       # 60 s on PGlite, then 60 s on PostgreSQL
 *   npm run bench:load -- --duration 10      # the short CI version
 *   npm run bench:load -- --engines pglite
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { projectRoot } from '../src/paths.js';
import { createTestDatabaseUrl } from '../test/helpers/database.js';
import { ADMIN_TOKEN, PNG, must, spawnServer, stop } from './lib.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    engines: { type: 'string', default: 'pglite,postgres' },
    writers: { type: 'string', default: '4' },
    readers: { type: 'string', default: '16' },
  },
});
const DURATION_S = Number(args.duration);
const WRITERS = Number(args.writers);
const READERS = Number(args.readers);

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const startServer = (env: Record<string, string>) => spawnServer([path.join(projectRoot, 'dist/src/server.js')], { ...env, ADMIN_TOKEN, LOG_LEVEL: 'warn' });

async function call(base: string, method: string, url: string, key: string | undefined, body?: unknown) {
  const res = await fetch(base + url, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function seed(base: string) {
  const { apiKey: key } = await must(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Load Org' });
  const { estate, building } = await must(base, 'POST', '/api/v1/estate/setup', key, { name: 'Load Estate' });
  const assets: string[] = [];
  for (let i = 0; i < 5; i++) {
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), `photo-${i}.png`);
    const res = await fetch(`${base}/api/v1/asset/upload`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    if (res.status !== 201) throw new Error(`upload -> ${res.status} ${await res.text()}`);
    assets.push(((await res.json()) as { id: string }).id);
  }
  const g = `/api/v1/estates/${estate.id}/gallery`;
  await must(base, 'PUT', g, key, { enabled: true });
  const sections: string[] = [];
  for (let s = 0; s < 3; s++) {
    const section = await must(base, 'POST', `${g}/sections`, key, { title: `Section ${s}`, description: 'Views' });
    sections.push(section.id);
    for (let i = 0; i < 20; i++)
      await must(base, 'POST', `${g}/items`, key, { assetId: assets[i % assets.length], caption: `Item ${i}`, sectionId: section.id });
  }
  for (const addon of ['investment', 'map', 'downloads']) await must(base, 'PUT', `/api/v1/estates/${estate.id}/${addon}`, key, { enabled: true });
  return { key, estateId: estate.id as string, buildingId: building.id as string, assets, sections };
}

interface WriterStats {
  latencies: number[];
  errors: number;
  acknowledged: string[];
}

/** One partner: create an apartment, patch it, list the building, sometimes add a gallery item and reorder. */
async function writer(base: string, world: Awaited<ReturnType<typeof seed>>, id: number, until: number, stats: WriterStats) {
  let n = 0;
  while (Date.now() < until) {
    n++;
    const timed = async (method: string, url: string, body?: unknown) => {
      const start = performance.now();
      const res = await call(base, method, url, world.key, body);
      stats.latencies.push(performance.now() - start);
      if (res.status >= 400) stats.errors++;
      return res;
    };
    const created = await timed('POST', '/api/v1/apartment', { name: `W${id}-${n}`, buildingId: world.buildingId, priceCents: 100_000 + n });
    if (created.status === 201) {
      stats.acknowledged.push(created.json.id);
      await timed('PATCH', `/api/v1/apartment/${created.json.id}`, { priceCents: 200_000 + n, status: 'BOOKED' });
    }
    if (n % 5 === 0) await timed('GET', `/api/v1/apartment?buildingId=${world.buildingId}&limit=50`);
    if (n % 10 === 0) {
      const section = world.sections[n % world.sections.length];
      const item = await timed('POST', `/api/v1/estates/${world.estateId}/gallery/items`, {
        assetId: world.assets[0],
        caption: `Live ${id}-${n}`,
        sectionId: section,
        order: 0,
      });
      if (item.status === 201) await timed('DELETE', `/api/v1/estates/${world.estateId}/gallery/items/${item.json.id}`);
    }
  }
}

async function run(engine: 'pglite' | 'postgres') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-load-'));
  const database = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    RATE_LIMIT_KEY_MAX: '1000000000',
    RATE_LIMIT_ANONYMOUS_MAX: '1000000000',
    ...(database ? { DATABASE_URL: database.url } : {}),
  };
  const { child, base } = await startServer(env);
  try {
    const world = await seed(base);
    const rssStart = await rssKb(child.pid!);
    let rssPeak = rssStart;
    const sampler = setInterval(
      () =>
        void rssKb(child.pid!).then(
          (kb) => {
            rssPeak = Math.max(rssPeak, kb);
          },
          () => undefined,
        ),
      250,
    );

    const until = Date.now() + DURATION_S * 1000;
    const stats: WriterStats = { latencies: [], errors: 0, acknowledged: [] };
    const writers = Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(base, world, i, until, stats)));
    const reads = autocannon({
      url: base,
      connections: READERS,
      duration: DURATION_S,
      requests: ['gallery', 'investment', 'map', 'downloads'].map((addon) => ({ method: 'GET' as const, path: `/api/v1/estates/${world.estateId}/${addon}` })),
    });
    const [readResult] = await Promise.all([reads, writers]);
    clearInterval(sampler);

    // Consistency: every acknowledged apartment is there; gallery positions are 0..n-1 in every sibling set.
    const list = await must(base, 'GET', `/api/v1/apartment?buildingId=${world.buildingId}`, world.key);
    const stored = new Set((list.items as Array<{ id: string }>).map((a) => a.id));
    const missing = stats.acknowledged.filter((id) => !stored.has(id));
    const gallery = await must(base, 'GET', `/api/v1/estates/${world.estateId}/gallery`, world.key);
    const contiguous = (items: Array<{ order: number }>) => items.every((item, i) => item.order === i);
    const positionsOk =
      contiguous(gallery.sections) && gallery.sections.every((s: { items: Array<{ order: number }> }) => contiguous(s.items)) && contiguous(gallery.items);

    const sorted = [...stats.latencies].sort((x, y) => x - y);
    const result = {
      engine,
      durationS: DURATION_S,
      reads: {
        requestsPerSec: readResult.requests.average,
        p50Ms: readResult.latency.p50,
        p99Ms: readResult.latency.p99,
        non2xx: readResult.non2xx,
        errors: readResult.errors + readResult.timeouts,
      },
      writes: {
        requests: sorted.length,
        requestsPerSec: Number((sorted.length / DURATION_S).toFixed(1)),
        p50Ms: Number(percentile(sorted, 50).toFixed(1)),
        p99Ms: Number(percentile(sorted, 99).toFixed(1)),
        errors: stats.errors,
        acknowledgedApartments: stats.acknowledged.length,
      },
      memory: { rssStartMb: Math.round(rssStart / 1024), rssPeakMb: Math.round(rssPeak / 1024) },
      consistency: { missingAcknowledged: missing.length, positionsContiguous: positionsOk },
    };
    console.log(JSON.stringify(result));
    const failed = missing.length > 0 || !positionsOk || result.reads.errors > 0 || result.reads.non2xx > 0 || stats.errors > 0;
    return failed;
  } finally {
    await stop(child);
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

let failed = false;
for (const engine of args.engines.split(',') as Array<'pglite' | 'postgres'>) failed = (await run(engine)) || failed;
if (failed) {
  console.error('load scenario failed: errors or an inconsistency (see the JSON lines above)');
  process.exit(1);
}
