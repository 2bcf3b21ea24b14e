/**
 * Anonymous `GET /api/v1/estates/{id}/gallery` (3 sections x 20 items) on the real server against a
 * bare Fastify route serving the same bytes, in the same run: alternating autocannon runs, medians.
 *
 *   npm run bench:gallery                                   # PGlite, then PostgreSQL (fresh database)
 *   npm run bench:gallery -- --engines pglite --runs 5 --duration 10 --connections 10
 */
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
    runs: { type: 'string', default: '5' },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '10' },
    /** Profiles the real server (node --cpu-prof) into this directory; summarise with bench/cpu-top.ts. */
    'cpu-prof': { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const load = { connections: CONNECTIONS, duration: DURATION };

/** One organization, one estate, 60 uploaded images in 3 gallery sections of 20; returns the read path. */
async function seed(base: string): Promise<string> {
  const { apiKey: key } = await must(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Bench Org' });
  const estate = await must(base, 'POST', '/api/v1/estate', key, { name: 'Bench Estate' });
  const g = `/api/v1/estates/${estate.id}/gallery`;
  await must(base, 'PUT', g, key, { enabled: true });
  for (let s = 0; s < 3; s++) {
    const section = await must(base, 'POST', `${g}/sections`, key, { title: `Section ${s + 1}`, description: 'Views from the terrace' });
    for (let i = 0; i < 20; i++) {
      const form = new FormData();
      form.append('file', new Blob([PNG], { type: 'image/png' }), `photo-${s}-${i}.png`);
      const res = await fetch(`${base}/api/v1/asset/upload`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
      if (res.status !== 201) throw new Error(`upload -> ${res.status} ${await res.text()}`);
      const asset = (await res.json()) as { id: string };
      await must(base, 'POST', `${g}/items`, key, { assetId: asset.id, caption: `Photo ${i + 1}`, sectionId: section.id });
    }
  }
  return g;
}

async function benchEngine(engine: 'pglite' | 'postgres') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-gallery-'));
  const pg = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const env = benchServerEnv(dataDir, ADMIN_TOKEN, pg?.url);
  const app = await spawnServer(serverArgs(args['cpu-prof'], engine), env);
  let bare: { child: ChildProcess; base: string } | undefined;
  try {
    const read = await seed(app.base);
    const res = await fetch(app.base + read);
    const body = await res.text();
    const parsed = JSON.parse(body) as { sections: Array<{ items: unknown[] }> };
    if (parsed.sections.length !== 3 || parsed.sections.some((s) => s.items.length !== 20)) throw new Error('seed did not produce 3 x 20 items');
    const bodyFile = path.join(dataDir, 'gallery.json');
    await writeFile(bodyFile, body);
    bare = await spawnServer(['--import', 'tsx', path.join(projectRoot, 'bench/gallery-bare-server.ts')], {
      BODY_FILE: bodyFile,
      BODY_ETAG: res.headers.get('etag') ?? '"x"',
    });
    const bareBody = await (await fetch(bare.base + read)).text();
    if (bareBody !== body) throw new Error('the bare route does not answer the same bytes');

    await cannon(app.base + read, load); // warm-up: JIT, pool, document cache
    await cannon(bare.base + read, load);
    const appRuns: CannonResult[] = [];
    const bareRuns: CannonResult[] = [];
    for (let i = 0; i < RUNS; i++) {
      appRuns.push(await cannon(app.base + read, load));
      bareRuns.push(await cannon(bare.base + read, load));
    }
    const summary = {
      engine,
      bodyBytes: Buffer.byteLength(body),
      appReqPerSec: Math.round(median(appRuns.map((r) => r.requests.average))),
      bareReqPerSec: Math.round(median(bareRuns.map((r) => r.requests.average))),
      appP99Ms: median(appRuns.map((r) => r.latency.p99)),
      bareP99Ms: median(bareRuns.map((r) => r.latency.p99)),
      runs: RUNS,
      durationS: DURATION,
      connections: CONNECTIONS,
    };
    const ratio = summary.appReqPerSec / summary.bareReqPerSec;
    // Each app run is paired with the bare run right after it; on a shared machine the median of
    // these paired ratios is steadier than the ratio of the two medians.
    const pairedRatio = median(appRuns.map((r, i) => r.requests.average / bareRuns[i]!.requests.average));
    const p99Ratio = summary.appP99Ms / Math.max(summary.bareP99Ms, 1);
    process.stdout.write(
      `${JSON.stringify({ ...summary, ratio: Number(ratio.toFixed(3)), pairedRatio: Number(pairedRatio.toFixed(3)), p99Ratio: Number(p99Ratio.toFixed(2)), appRuns: appRuns.map((r) => Math.round(r.requests.average)), bareRuns: bareRuns.map((r) => Math.round(r.requests.average)) })}\n`,
    );
    process.stdout.write(
      `${engine}: ${ratio >= 0.6 ? 'meets' : 'MISSES'} the 60% throughput target (paired ${pairedRatio >= 0.6 ? 'meets' : 'misses'}); p99 ${p99Ratio <= 2 ? 'within' : 'OUTSIDE'} 2x\n`,
    );
  } finally {
    if (bare) await stop(bare.child);
    await stop(app.child);
    await pg?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

for (const engine of args.engines.split(',').map((e) => e.trim())) {
  if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`unknown engine ${engine}`);
  await benchEngine(engine);
}
