/**
 * Upload benchmark: a 20 MB file sent with curl to POST /api/v1/asset/upload on a real server
 * process, next to the same curl upload to a minimal streaming Fastify route (upload-baseline-server.ts),
 * several alternating runs, medians. Reports wall time and the server's peak RSS growth during the
 * upload (VmHWM after resetting it through /proc/<pid>/clear_refs, Linux).
 *
 *   npm run bench:upload            (RUNS=7 npm run bench:upload for more runs)
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ADMIN_TOKEN, statusKb } from './lib.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.RUNS ?? 5);
const SIZE = 20 * 1024 * 1024;

async function startServer(
  args: string[],
  env: Record<string, string>,
  url: (line: string) => string | undefined,
): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let base: string | undefined = url('');
  child.stdout!.on('data', (d: Buffer) => {
    base ??= url(d.toString());
  });
  for (let i = 0; i < 600 && !base; i++) await sleep(50);
  if (!base) throw new Error(`server ${args.join(' ')} did not start`);
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return { child, base };
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`server ${args.join(' ')} did not become healthy`);
}

/** One curl upload; returns wall seconds and the server's peak RSS growth in MB during it. */
async function measure(pid: number, curlArgs: string[]): Promise<{ seconds: number; growthMb: number; rssMb: number }> {
  if (typeof global.gc === 'function') global.gc();
  await sleep(200);
  const before = await statusKb(pid, 'VmRSS');
  await writeFile(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
  const started = process.hrtime.bigint();
  const { stdout } = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...curlArgs]);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (!/^20\d$/.test(stdout.trim())) throw new Error(`upload answered ${stdout}`);
  const peak = await statusKb(pid, 'VmHWM');
  return { seconds, growthMb: (peak - before) / 1024, rssMb: before / 1024 };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const work = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-upload-'));
const file = path.join(work, 'upload.bin');
await writeFile(file, Buffer.alloc(SIZE, 0x5a));
const port = 30000 + Math.floor(Math.random() * 20000);
const service = await startServer(
  ['src/server.ts'],
  { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(work, 'data'), ADMIN_TOKEN, LOG_LEVEL: 'warn', RATE_LIMIT_KEY_MAX: '100000' },
  () => `http://127.0.0.1:${port}`,
);
const baseline = await startServer(['bench/upload-baseline-server.ts'], {}, (line) => /http:\/\/\S+/.exec(line)?.[0]);

try {
  const org = await fetch(`${service.base}/api/v1/admin/organizations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench' }),
  });
  const { apiKey } = (await org.json()) as { apiKey: string };
  const serviceArgs = ['-H', `Authorization: Bearer ${apiKey}`, '-F', `file=@${file};type=application/octet-stream`, `${service.base}/api/v1/asset/upload`];
  const baselineArgs = ['-F', `file=@${file};type=application/octet-stream`, `${baseline.base}/upload`];
  // One warm-up each, so JIT and first-request allocations are not counted.
  await measure(service.child.pid!, serviceArgs);
  await measure(baseline.child.pid!, baselineArgs);
  const results = {
    service: [] as Array<{ seconds: number; growthMb: number; rssMb: number }>,
    baseline: [] as Array<{ seconds: number; growthMb: number; rssMb: number }>,
  };
  for (let i = 0; i < RUNS; i++) {
    results.service.push(await measure(service.child.pid!, serviceArgs));
    results.baseline.push(await measure(baseline.child.pid!, baselineArgs));
  }
  const row = (name: string, xs: Array<{ seconds: number; growthMb: number; rssMb: number }>) => ({
    route: name,
    runs: xs.length,
    medianSeconds: Number(median(xs.map((x) => x.seconds)).toFixed(3)),
    medianPeakRssGrowthMb: Number(median(xs.map((x) => x.growthMb)).toFixed(1)),
    maxPeakRssGrowthMb: Number(Math.max(...xs.map((x) => x.growthMb)).toFixed(1)),
    rssBeforeMb: Number(median(xs.map((x) => x.rssMb)).toFixed(0)),
  });
  const table = [row('POST /api/v1/asset/upload (service, disk storage, PGlite)', results.service), row('minimal streaming Fastify route', results.baseline)];
  console.table(table);
  const ratio = table[0]!.medianSeconds / table[1]!.medianSeconds;
  console.log(
    `file ${SIZE} bytes; time ratio service/baseline ${ratio.toFixed(2)} (target <= 2); service peak RSS growth median ${table[0]!.medianPeakRssGrowthMb} MB (target < 40 MB)`,
  );
} finally {
  service.child.kill('SIGTERM');
  baseline.child.kill('SIGTERM');
  await sleep(500);
  await rm(work, { recursive: true, force: true });
}
