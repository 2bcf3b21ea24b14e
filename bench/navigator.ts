/**
 * Navigators (issue 26) on the real server:
 * - PUT of 2,000 shapes on one frame (parse, normalise, reference check, one DELETE and one INSERT), timed one
 *   request at a time, next to a PUT of 1 shape;
 * - GET of a navigator of 36 frames x 100 shapes against GET of one apartment by id: one request at a time,
 *   alternating (median latencies), then alternating autocannon runs in the same process, medians of the paired
 *   ratios of req/s and of the server's CPU time per request (the issue asks for the navigator within 2x of the
 *   apartment; the req/s of a 43 KB answer is bounded by the load generator on the same two cores, the CPU
 *   time is what the server spends).
 *
 *   npm run bench:navigator                                   # PGlite, then PostgreSQL (fresh database)
 *   npm run bench:navigator -- --engines pglite --runs 5 --duration 5 --connections 10
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { createTestDatabaseUrl } from '../test/helpers/database.js';
import { ADMIN_TOKEN, TICK_US, benchApartment, benchServerEnv, cannon, median, must, postgresPids, serverArgs, spawnServer, stop, ticks } from './lib.js';

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    puts: { type: 'string', default: '10' },
    sequential: { type: 'string', default: '200' },
    'cpu-prof': { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const PUTS = Number(args.puts);
const SEQUENTIAL = Number(args.sequential);
// Both reads as a browser asks for them: the navigator document is sent compressed (cached encodings), the
// apartment (under 1 KB) as it is.
const load = { connections: Number(args.connections), duration: Number(args.duration), acceptEncoding: 'br, gzip' };
const FRAMES = 36;
const SHAPES = 100;

/** A quadrilateral of apartment i on a 1920 x 1080 render, spelled as a client would (relative, commas). */
const outline = (i: number) => {
  const x = 20 + (i % 40) * 46;
  const y = 20 + Math.floor(i / 40) * 20;
  return `m${x},${y} l40,0 l0,${15 + (i % 3)} l-40,0 z`;
};
const shapes = (apartments: string[], n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `Unit ${i}`, referenceType: 'apartment', referenceId: apartments[i % apartments.length], shape: outline(i) }));

/** A 640 x 360 render (solid grey: small, its size in the header the upload reads, one variant to make). */
const RENDER = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#888' } })
  .png()
  .toBuffer();

async function upload(base: string, key: string, i: number): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([RENDER], { type: 'image/png' }), `frame-${i}.png`);
  const res = await fetch(`${base}/api/v1/asset/upload`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  if (res.status !== 201) throw new Error(`upload -> ${res.status} ${await res.text()}`);
  const id = ((await res.json()) as { id: string }).id;
  return id;
}

async function seed(base: string) {
  const { apiKey: key } = await must(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Bench Org' });
  const setup = await must(base, 'POST', '/api/v1/estate/setup', key, { name: 'Bench Estate' });
  const nav = setup.navigator.id as string;
  const bulk = await must(base, 'POST', '/api/v1/apartment/bulk', key, {
    buildingId: setup.building.id,
    apartments: Array.from({ length: 2_000 }, (_, i) => benchApartment(i)),
  });
  const apartments = bulk.ids as string[];
  // The outlines are drawn on a 1920 x 1080 render; the small 16:9 renders would otherwise size the overlay.
  await must(base, 'PATCH', `/api/v1/navigator/${nav}`, key, { options: { overlayWidth: 1920, overlayHeight: 1080 } });
  const frames: string[] = [];
  for (let f = 0; f < FRAMES; f++) {
    const frame = await must(base, 'POST', `/api/v1/navigator/${nav}/images`, key, { assetId: await upload(base, key, f), angle: f * 10 });
    await must(base, 'PUT', `/api/v1/navigator/${nav}/images/${frame.id}/shapes`, key, shapes(apartments, SHAPES));
    frames.push(frame.id);
  }
  // A second navigator (nested) holds the frame the PUTs replace, so the read above stays 36 x 100.
  const building = await must(base, 'POST', '/api/v1/building', key, { estateId: setup.estate.id, name: 'Bench B' });
  const nested = await must(base, 'POST', '/api/v1/navigator', key, {
    estateId: setup.estate.id,
    parentId: nav,
    referenceType: 'building',
    referenceId: building.id,
    name: 'PUT target',
  });
  await must(base, 'PATCH', `/api/v1/navigator/${nested.id}`, key, { options: { overlayWidth: 1920, overlayHeight: 1080 } });
  const target = await must(base, 'POST', `/api/v1/navigator/${nested.id}/images`, key, { assetId: await upload(base, key, 99), angle: 0 });
  // The renders' variants are made in the background: measured reads must not share the CPU with them.
  for (let i = 0; i < 1200; i++) {
    const assets = (await must(base, 'GET', '/api/v1/asset?limit=1000', key)) as Array<{ placeholder: string | null }>;
    if (assets.every((a) => a.placeholder !== null)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { key, nav, nestedId: nested.id as string, target: target.id as string, apartments, apartment: apartments[0]! };
}

async function timedPut(base: string, key: string, url: string, body: unknown): Promise<number> {
  const started = performance.now();
  await must(base, 'PUT', url, key, body);
  return performance.now() - started;
}

async function benchEngine(engine: 'pglite' | 'postgres') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-navigator-'));
  const pg = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const app = await spawnServer(serverArgs(args['cpu-prof'], engine), benchServerEnv(dataDir, ADMIN_TOKEN, pg?.url), 300);
  try {
    const s = await seed(app.base);
    const navUrl = `/api/v1/navigator/${s.nav}`;
    const doc = await fetch(app.base + navUrl, { headers: { authorization: `Bearer ${s.key}` } });
    const bytes = (await doc.arrayBuffer()).byteLength;
    const sent = await bytesOnTheWire(app.base + navUrl, s.key, load.acceptEncoding);
    const putUrl = `/api/v1/navigator/${s.nestedId}/images/${s.target}/shapes`;
    const many = shapes(s.apartments, 2_000);
    const one = shapes(s.apartments, 1);
    const manyMs: number[] = [];
    const oneMs: number[] = [];
    for (let i = 0; i < PUTS; i++) {
      oneMs.push(await timedPut(app.base, s.key, putUrl, one));
      manyMs.push(await timedPut(app.base, s.key, putUrl, many));
    }
    console.log(`\n${engine}: PUT shapes, one request at a time, median of ${PUTS}`);
    console.log(`  2,000 shapes (${Math.round(JSON.stringify(many).length / 1024)} KB)  ${median(manyMs).toFixed(1)} ms`);
    console.log(`  1 shape                 ${median(oneMs).toFixed(1)} ms`);

    // One request at a time, alternating, so the two reads share the machine's state equally (a loaded host).
    const latency: Record<string, number[]> = { apartment: [], navigator: [] };
    for (let i = 0; i < SEQUENTIAL; i++) {
      for (const [name, p] of [
        ['apartment', `/api/v1/apartment/${s.apartment}`],
        ['navigator', navUrl],
      ] as const) {
        const started = performance.now();
        const res = await fetch(app.base + p, { headers: { authorization: `Bearer ${s.key}`, 'accept-encoding': load.acceptEncoding } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${p} -> ${res.status}`);
        latency[name]!.push(performance.now() - started);
      }
    }
    const [ap, nv] = [median(latency.apartment!), median(latency.navigator!)];
    console.log(
      `${engine}: GET one at a time, median of ${SEQUENTIAL}: apartment ${ap.toFixed(2)} ms, navigator ${nv.toFixed(2)} ms (${(nv / ap).toFixed(2)}x)`,
    );

    const paths = { 'apartment by id': `/api/v1/apartment/${s.apartment}`, [`navigator ${FRAMES} x ${SHAPES}`]: navUrl };
    for (const p of Object.values(paths)) await cannon(app.base + p, { ...load, duration: 2, key: s.key });
    const rates: Record<string, number[]> = {};
    const ratios: number[] = [];
    // The load generator runs on the same cores and receives 43 KB per navigator answer against 0.5 KB per
    // apartment: its rate is bounded by the client as much as by the server. What the server spends per
    // request (user + system CPU of its process, and of PostgreSQL's, from /proc) is measured beside it.
    const cpu: Record<string, number[]> = { apartment: [], navigator: [] };
    const cpuRatios: number[] = [];
    const serverPids = () => [app.child.pid!, ...(engine === 'postgres' ? postgresPids() : [])];
    const measured = async (url: string, name: 'apartment' | 'navigator') => {
      const before = ticks(serverPids());
      const result = await cannon(app.base + url, { ...load, key: s.key });
      const msPerRequest = ((ticks(serverPids()) - before) * TICK_US) / 1000 / result.requests.total;
      cpu[name]!.push(msPerRequest);
      return { rate: result.requests.average, msPerRequest };
    };
    for (let run = 0; run < RUNS; run++) {
      const baseline = await measured(paths['apartment by id']!, 'apartment');
      const nav = await measured(navUrl, 'navigator');
      rates['apartment by id'] = [...(rates['apartment by id'] ?? []), baseline.rate];
      rates.navigator = [...(rates.navigator ?? []), nav.rate];
      ratios.push(nav.rate / baseline.rate);
      cpuRatios.push(nav.msPerRequest / baseline.msPerRequest);
    }
    console.log(
      `${engine}: GET req/s (median of ${RUNS}); navigator document ${Math.round(bytes / 1024)} KB (${Math.round(sent.bytes / 1024)} KB as ${sent.encoding})`,
    );
    console.log(`  apartment by id         ${Math.round(median(rates['apartment by id']!))} req/s`);
    console.log(`  navigator ${FRAMES} x ${SHAPES}       ${Math.round(median(rates.navigator!))} req/s   ratio ${median(ratios).toFixed(2)}`);
    console.log(`${engine}: server CPU per request (process${engine === 'postgres' ? ' + PostgreSQL' : ''}, median of ${RUNS})`);
    console.log(`  apartment by id         ${median(cpu.apartment!).toFixed(3)} ms`);
    console.log(
      `  navigator ${FRAMES} x ${SHAPES}       ${median(cpu.navigator!).toFixed(3)} ms   ratio ${median(cpuRatios).toFixed(2)} (the issue's target: <= 2)`,
    );
  } finally {
    await stop(app.child);
    await pg?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

for (const engine of args.engines.split(',') as Array<'pglite' | 'postgres'>) await benchEngine(engine);

/** The body's bytes as sent (fetch decodes them), and the encoding the server chose. */
function bytesOnTheWire(url: string, key: string, acceptEncoding: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': acceptEncoding } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }));
      })
      .on('error', reject);
  });
}
