/**
 * Image variants on the real server (dist/src/server.js, PGlite, disk storage): a 6000 x 4000 JPEG of
 * about 15 MB is uploaded; reported are the time until all its variants exist, the server's peak RSS
 * growth meanwhile (VmHWM after a reset through /proc/<pid>/clear_refs), and the anonymous gallery read
 * throughput while variants are being made, against idle, alternating in one run, medians.
 *
 *   npm run bench:images
 *   npm run bench:images -- --runs 5 --duration 6 --connections 10
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { projectRoot } from '../src/paths.js';
import { ADMIN_TOKEN, benchServerEnv, cannon, median, must, spawnServer, statusKb, stop } from './lib.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '6' },
    connections: { type: 'string', default: '10' },
  },
});
const RUNS = Number(args.runs);
const DURATION = Number(args.duration);
const load = { connections: Number(args.connections), duration: DURATION };

interface Asset {
  id: string;
  variants: Array<{ width: number; sizeBytes: number | null }>;
  placeholder: string | null;
}

/** A worst case for the encoder: gaussian noise compresses badly, so 24 MP make a 15 MB JPEG. */
async function cameraJpeg(): Promise<Buffer<ArrayBuffer>> {
  const jpeg = await sharp({ create: { width: 6000, height: 4000, channels: 3, background: 'grey', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .jpeg({ quality: 92 })
    .toBuffer();
  return Buffer.from(jpeg); // a copy on an ArrayBuffer, as Blob wants
}

async function upload(base: string, key: string, data: Buffer<ArrayBuffer>, filename: string, type: string): Promise<Asset> {
  const form = new FormData();
  form.append('file', new Blob([data], { type }), filename);
  const res = await fetch(`${base}/api/v1/asset/upload`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  if (res.status !== 201) throw new Error(`upload -> ${res.status} ${await res.text()}`);
  return (await res.json()) as Asset;
}

/** Polls the asset until every variant has a size and the placeholder exists; resolves with the time that was seen. */
async function ready(base: string, key: string, id: string): Promise<number> {
  for (let i = 0; i < 6_000; i++) {
    const asset = (await must(base, 'GET', `/api/v1/asset/${id}`, key)) as Asset;
    if (asset.placeholder !== null && asset.variants.every((v) => v.sizeBytes !== null)) return performance.now();
    await sleep(20);
  }
  throw new Error(`asset ${id} got no variants within 2 minutes`);
}

/** One organization, an estate whose gallery shows 20 small images; returns the key and the read path. */
async function seed(base: string): Promise<{ key: string; read: string }> {
  const { apiKey: key } = await must(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Bench Images' });
  const estate = await must(base, 'POST', '/api/v1/estate', key, { name: 'Bench Estate' });
  const read = `/api/v1/estates/${estate.id}/gallery`;
  await must(base, 'PUT', read, key, { enabled: true });
  const thumb = Buffer.from(
    await sharp({ create: { width: 64, height: 48, channels: 3, background: 'teal' } })
      .png()
      .toBuffer(),
  );
  let last: Asset | undefined;
  for (let i = 0; i < 20; i++) {
    last = await upload(base, key, thumb, `photo-${i}.png`, 'image/png');
    await must(base, 'POST', `${read}/items`, key, { assetId: last.id, caption: `Photo ${i + 1}` });
  }
  if (last) await ready(base, key, last.id);
  return { key, read };
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-images-'));
const server = await spawnServer([path.join(projectRoot, 'dist/src/server.js')], benchServerEnv(dataDir, ADMIN_TOKEN, undefined));
const pid = server.child.pid!;
try {
  const jpeg = await cameraJpeg();
  const { key, read } = await seed(server.base);
  const url = server.base + read;

  // 1. One image at a time on an otherwise idle server: time to all variants, peak RSS growth.
  const single: Array<{ uploadS: number; variantsS: number; growthMb: number; rssMb: number }> = [];
  for (let i = 0; i < RUNS + 1; i++) {
    await sleep(300);
    const before = await statusKb(pid, 'VmRSS');
    await writeFile(`/proc/${pid}/clear_refs`, '5'); // VmHWM := current RSS
    const started = performance.now();
    const asset = await upload(server.base, key, jpeg, `camera-${i}.jpg`, 'image/jpeg');
    const answered = performance.now();
    if (asset.variants.length !== 4) throw new Error(`expected 4 planned variants, got ${asset.variants.length}`);
    const done = await ready(server.base, key, asset.id);
    const peak = await statusKb(pid, 'VmHWM');
    // The first image warms libvips up; it is left out of the medians.
    if (i > 0)
      single.push({ uploadS: (answered - started) / 1000, variantsS: (done - started) / 1000, growthMb: (peak - before) / 1024, rssMb: before / 1024 });
  }

  // 2. Gallery reads idle vs while variants are made: before each busy run, enough images are uploaded
  //    that their jobs (one at a time) outlast the autocannon run.
  const perImage = median(single.map((s) => s.variantsS - s.uploadS));
  const batch = Math.ceil(DURATION / perImage) + 1;
  await cannon(url, load); // warm-up
  const idle: number[] = [];
  const busy: number[] = [];
  const control: number[] = [];
  const overlap: number[] = [];
  // The control uploads as many bytes that are not an image just before its run: what the uploads
  // themselves leave behind (garbage, disk writeback), without any variant job.
  const notImage = Buffer.from(Buffer.alloc(jpeg.length, 0x5a));
  for (let r = 0; r < RUNS; r++) {
    idle.push((await cannon(url, load)).requests.average);
    for (let i = 0; i < batch; i++) await upload(server.base, key, notImage, `control-${r}-${i}.bin`, 'application/octet-stream');
    control.push((await cannon(url, load)).requests.average);
    const assets: Asset[] = [];
    for (let i = 0; i < batch; i++) assets.push(await upload(server.base, key, jpeg, `batch-${r}-${i}.jpg`, 'image/jpeg'));
    const loadStarted = performance.now();
    busy.push((await cannon(url, load)).requests.average);
    const allDone = await ready(server.base, key, assets.at(-1)!.id);
    overlap.push(Math.min(1, (allDone - loadStarted) / 1000 / DURATION));
  }

  const summary = {
    jpegBytes: jpeg.length,
    runs: RUNS,
    uploadS: Number(median(single.map((s) => s.uploadS)).toFixed(3)),
    allVariantsS: Number(median(single.map((s) => s.variantsS)).toFixed(3)),
    maxAllVariantsS: Number(Math.max(...single.map((s) => s.variantsS)).toFixed(3)),
    rssGrowthMb: Number(median(single.map((s) => s.growthMb)).toFixed(1)),
    maxRssGrowthMb: Number(Math.max(...single.map((s) => s.growthMb)).toFixed(1)),
    rssBeforeMb: Math.round(median(single.map((s) => s.rssMb))),
    imagesPerBusyRun: batch,
    idleReqPerSec: Math.round(median(idle)),
    busyReqPerSec: Math.round(median(busy)),
    pairedRatio: Number(median(busy.map((b, i) => b / idle[i]!)).toFixed(3)),
    controlReqPerSec: Math.round(median(control)),
    controlPairedRatio: Number(median(control.map((c, i) => c / idle[i]!)).toFixed(3)),
    busyCoverage: Number(Math.min(...overlap).toFixed(2)),
    idleRuns: idle.map(Math.round),
    busyRuns: busy.map(Math.round),
    controlRuns: control.map(Math.round),
    durationS: DURATION,
    connections: load.connections,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  const verdict = (ok: boolean) => (ok ? 'meets' : 'MISSES');
  process.stdout.write(
    `all variants ${summary.allVariantsS} s: ${verdict(summary.allVariantsS <= 3)} 3 s; RSS growth ${summary.maxRssGrowthMb} MB: ${verdict(summary.maxRssGrowthMb <= 150)} 150 MB; reads while busy ${summary.pairedRatio}: ${verdict(summary.pairedRatio >= 0.8)} 80% of idle\n`,
  );
} finally {
  await stop(server.child);
  await rm(dataDir, { recursive: true, force: true });
}
