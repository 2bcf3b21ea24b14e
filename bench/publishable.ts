/**
 * Reads with a publishable key (issue 17) against the anonymous add-on read they are meant to match, on the
 * real server, in the same run: alternating autocannon runs, medians of the paired ratios.
 *
 *   npm run bench:publishable                                   # PGlite, then PostgreSQL (fresh database)
 *   npm run bench:publishable -- --engines pglite --runs 5 --duration 5 --connections 10
 *
 * Paths: the anonymous gallery read (20 items; the baseline), and with a publishable key: one apartment by id,
 * one estate, and the list of a building of 50 apartments.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createTestDatabaseUrl } from '../test/helpers/database.js';
import { ADMIN_TOKEN, PNG, benchApartment, benchServerEnv, cannon, median, must, serverArgs, spawnServer, stop } from './lib.js';

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    'cpu-prof': { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const load = { connections: Number(args.connections), duration: Number(args.duration) };

async function seed(base: string) {
  const { apiKey: key } = await must(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Bench Org' });
  const estate = await must(base, 'POST', '/api/v1/estate', key, { name: 'Bench Estate' });
  const g = `/api/v1/estates/${estate.id}/gallery`;
  await must(base, 'PUT', g, key, { enabled: true });
  for (let i = 0; i < 20; i++) {
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), `photo-${i}.png`);
    const res = await fetch(`${base}/api/v1/asset/upload`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    if (res.status !== 201) throw new Error(`upload -> ${res.status} ${await res.text()}`);
    await must(base, 'POST', `${g}/items`, key, { assetId: ((await res.json()) as { id: string }).id, caption: `Photo ${i + 1}` });
  }
  const building = await must(base, 'POST', '/api/v1/building', key, { name: 'A', estateId: estate.id });
  await must(base, 'POST', '/api/v1/apartment/bulk', key, { buildingId: building.id, apartments: Array.from({ length: 50 }, (_, i) => benchApartment(i)) });
  const list = await must(base, 'GET', `/api/v1/apartment?buildingId=${building.id}`, key);
  const browser = await must(base, 'POST', '/api/v1/api-keys', key, { name: 'website', scopes: ['publishable'] });
  return {
    gallery: g,
    browserKey: browser.apiKey as string,
    paths: {
      'apartment by id': `/api/v1/apartment/${list.items[0].id}`,
      estate: `/api/v1/estate/${estate.id}`,
      'list of 50': `/api/v1/apartment?buildingId=${building.id}`,
    } as Record<string, string>,
  };
}

async function benchEngine(engine: 'pglite' | 'postgres') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-publishable-'));
  const pg = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const app = await spawnServer(serverArgs(args['cpu-prof'], engine), benchServerEnv(dataDir, ADMIN_TOKEN, pg?.url));
  try {
    const s = await seed(app.base);
    await cannon(app.base + s.gallery, { ...load, duration: 2 });
    for (const p of Object.values(s.paths)) await cannon(app.base + p, { ...load, duration: 2, key: s.browserKey });
    const ratios: Record<string, number[]> = {};
    const rates: Record<string, number[]> = { 'gallery (anonymous)': [] };
    for (let run = 0; run < RUNS; run++) {
      const baseline = (await cannon(app.base + s.gallery, load)).requests.average;
      rates['gallery (anonymous)']!.push(baseline);
      for (const [name, p] of Object.entries(s.paths)) {
        const rate = (await cannon(app.base + p, { ...load, key: s.browserKey })).requests.average;
        rates[name] = [...(rates[name] ?? []), rate];
        ratios[name] = [...(ratios[name] ?? []), rate / baseline];
      }
    }
    console.log(`\n${engine}: req/s (median of ${RUNS}) and ratio to the anonymous gallery read of the same run`);
    for (const [name, xs] of Object.entries(rates)) {
      const r = ratios[name];
      console.log(`  ${name.padEnd(22)} ${Math.round(median(xs)).toString().padStart(7)} req/s${r ? `   ratio ${median(r).toFixed(2)}` : ''}`);
    }
  } finally {
    await stop(app.child);
    await pg?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

for (const engine of args.engines.split(',') as Array<'pglite' | 'postgres'>) await benchEngine(engine);
