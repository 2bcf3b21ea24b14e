import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { projectRoot } from '../src/paths.js';

/** A 1x1 PNG: real image bytes the gallery accepts. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** Starts a Node entry on a free loopback port and waits until GET /health answers (30 s unless `startSeconds`). */
export async function spawnServer(args: string[], env: Record<string, string>, startSeconds = 30): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < startSeconds * 10; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return { child, base };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server ${args.join(' ')} did not start`);
}

/** SIGTERM and wait for the exit. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export interface CannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
}
// Loaded through require: autocannon ships no type declarations.
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: Record<string, unknown>) => Promise<CannonResult>;

/** One autocannon run; any non-2xx answer or error fails the benchmark (a 429 measures the limiter, not the path). */
export async function cannon(
  url: string,
  opts: {
    connections: number;
    duration: number;
    key?: string | undefined;
    method?: string;
    body?: unknown;
    headers?: Record<string, string>;
    acceptEncoding?: string;
  },
): Promise<CannonResult> {
  const headers: Record<string, string> = {
    ...opts.headers,
    ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
    // What a browser sends; autocannon counts the bytes as they arrive and does not decode them.
    ...(opts.acceptEncoding ? { 'accept-encoding': opts.acceptEncoding } : {}),
    ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
  };
  const result = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.duration,
    pipelining: 1,
    headers,
    ...(opts.method ? { method: opts.method } : {}),
    // `[<id>]` in a body becomes a fresh id per request (unique apartment names).
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body), idReplacement: true } : {}),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The environment of a benchmarked server: a fresh DATA_DIR, the operator token, limits out of the way. */
export function benchServerEnv(dataDir: string, adminToken: string, databaseUrl: string | undefined): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ANONYMOUS_MAX: '100000000',
    RATE_LIMIT_KEY_MAX: '100000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
}

/** The operator token every benchmarked server is started with. */
export const ADMIN_TOKEN = 'bench-operator-token-0123456789';

/** A JSON call that must succeed (any status from 300 up stops the benchmark); the parsed body. */
export async function must(base: string, method: string, url: string, key: string | undefined, body?: unknown) {
  const res = await fetch(base + url, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A field of /proc/<pid>/status in kB (Linux): VmRSS now, VmHWM the peak since the last reset through clear_refs. */
export async function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? Number.NaN);
}

/** Node arguments of the real server; with a directory, `node --cpu-prof` writes its profile there (see bench/cpu-top.ts). */
export function serverArgs(profileDir: string | undefined, engine: string): string[] {
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir, engine)] : [];
  return [...profile, path.join(projectRoot, 'dist/src/server.js')];
}

/** The apartment `i` of the bulk and sync benchmarks: name, price, status, description, five apartmentData keys. */
export const benchApartment = (i: number) => ({
  name: `Unit ${i}`,
  priceCents: 40_000_000 + i,
  status: 'ACTIVE',
  description: 'Two rooms, south-facing balcony, storage in the basement.',
  apartmentData: { area: 40 + (i % 60), rooms: 1 + (i % 4), floor: i % 12, bathrooms: 1, exposures: ['S', 'W'] },
});

/** CPU ticks (user + system) of these processes; gone ones count nothing. */
export function ticks(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited between the listing and the read
    }
  }
  return total;
}

/** Every PostgreSQL process of this machine (Linux): the server's backends do their part of a request's work. */
export const postgresPids = () =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres');
      } catch {
        return false;
      }
    });

/** Microseconds per /proc tick (USER_HZ). */
export const TICK_US = 1e6 / 100; // USER_HZ
