/**
 * Answer times while a dependency fails (issue 30): a real server process (PGlite, S3 through a TCP relay
 * to s3rver, a redis-server of its own), measured healthy, then with Redis hung (SIGSTOP), S3 silent (the
 * relay accepts and never answers) and S3 refusing (the relay resets every connection), each fault then
 * lifted to time the recovery. Per phase and request kind: statuses, median and max milliseconds; and the
 * warn/error lines the server wrote during the phase.
 *
 * Writes (POST /api/v1/estate) are counted: every acknowledged one must be there at the end (lost: 0).
 * With PG=1 the server runs on a fresh PostgreSQL database (TEST_POSTGRES_URL or the local one) through
 * another relay, and one more phase refuses it (a server that stopped).
 *
 *   npm run build && npx tsx bench/faults.ts          (N=20 requests per kind and phase by default; PG=1)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { projectRoot } from '../src/paths.js';
import { ADMIN_TOKEN, PNG, freePort, median, must } from './lib.js';

const N = Number(process.env.N ?? 20);
type Mode = 'forward' | 'silent' | 'refuse';

/** A TCP relay whose behaviour the benchmark switches: forward, accept and say nothing, or reset. */
async function relay(target: number): Promise<{ port: number; mode: (m: Mode) => void; close: () => Promise<void> }> {
  let mode: Mode = 'forward';
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client)).on('error', () => undefined);
    if (mode === 'refuse') return client.resetAndDestroy();
    if (mode === 'silent') return client.on('data', () => undefined);
    const upstream = net.connect(target, '127.0.0.1');
    open.add(upstream);
    upstream.on('close', () => open.delete(upstream)).on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    mode: (m) => {
      mode = m;
      for (const s of open) s.destroy(); // pooled connections must not carry on forwarding
    },
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pps-faults-'));
  const S3rver = createRequire(import.meta.url)('s3rver') as new (o: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', directory: path.join(dir, 's3'), silent: true, configureBuckets: [{ name: 'assets', configs: [] }] });
  const s3Relay = await relay((await s3.run()).port);
  const redisPort = await freePort();
  const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await sleep(300);

  let pgRelay: Awaited<ReturnType<typeof relay>> | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  if (process.env.PG === '1') {
    const admin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `pps_faults_${Date.now().toString(36)}`;
    const run = async (sql: string) => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(sql);
      await client.end();
    };
    await run(`CREATE DATABASE ${name}`);
    dropDatabase = () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const url = new URL(admin);
    pgRelay = await relay(Number(url.port || 5432));
    url.hostname = '127.0.0.1';
    url.port = String(pgRelay.port);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }

  const port = await freePort();
  let log = '';
  const server: ChildProcess = spawn(process.execPath, [path.join(projectRoot, 'dist/src/server.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'assets',
      S3_ENDPOINT: `http://127.0.0.1:${s3Relay.port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      RATE_LIMIT_KEY_MAX: '100000000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d: Buffer) => {
    log += d.toString();
  });
  server.stderr!.on('data', (d: Buffer) => {
    log += d.toString();
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(100);
  }
  try {
    const org = await must(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Faults' });
    const key = org.apiKey as string;
    const upload = () => {
      const form = new FormData();
      form.append('file', new Blob([PNG], { type: 'image/png' }), 'a.png');
      return fetch(`${base}/api/v1/asset/upload`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    };
    const stored = (await (await upload()).json()) as { id: string };
    const acknowledged: string[] = [];
    let writes = 0;
    const write = async () => {
      const name = `Estate ${++writes}`;
      const res = await fetch(`${base}/api/v1/estate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      if (res.status === 201) acknowledged.push(name);
      return res;
    };
    const kinds: Record<string, () => Promise<Response>> = {
      'GET /api/v1/estate (rate-limited)': () => fetch(`${base}/api/v1/estate`, { headers: { authorization: `Bearer ${key}` } }),
      'POST /api/v1/estate (database write)': write,
      'GET /files/… (S3 read)': () => fetch(`${base}/files/${org.organization?.id ?? org.id}/${stored.id}`),
      'POST /api/v1/asset/upload (S3 write)': upload,
      'GET /health/ready': () => fetch(`${base}/health/ready`),
    };

    const phase = async (name: string) => {
      const logAt = log.length;
      console.log(`\n## ${name}`);
      for (const [kind, call] of Object.entries(kinds)) {
        const times: number[] = [];
        const statuses = new Map<number, number>();
        // Uploads against a silent store take seconds each: a quarter of the requests.
        const count = kind.startsWith('POST') ? Math.max(2, Math.ceil(N / 4)) : N;
        for (let i = 0; i < count; i++) {
          const started = performance.now();
          const res = await call();
          await res.arrayBuffer();
          times.push(performance.now() - started);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
        const st = [...statuses].map(([s, c]) => `${s}×${c}`).join(' ');
        console.log(
          `${kind.padEnd(40)} ${st.padEnd(16)} median ${median(times).toFixed(0).padStart(5)} ms   max ${Math.max(...times)
            .toFixed(0)
            .padStart(5)} ms`,
        );
      }
      const lines = log
        .slice(logAt)
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { level: number; msg: string });
      console.log(`log lines at warn or above: ${lines.filter((l) => l.level >= 40).length} (error: ${lines.filter((l) => l.level >= 50).length})`);
    };
    const recovery = async (name: string, ok: () => Promise<boolean>) => {
      const started = performance.now();
      while (!(await ok())) await sleep(50);
      console.log(`recovery after ${name}: first good answer ${(performance.now() - started).toFixed(0)} ms after the fault was lifted`);
    };

    await phase('healthy');
    process.kill(redis.pid!, 'SIGSTOP');
    await phase('Redis hung (SIGSTOP)');
    process.kill(redis.pid!, 'SIGCONT');
    await recovery('Redis', async () => ((await (await fetch(`${base}/health/ready`)).json()) as { checks: { redis?: string } }).checks.redis === 'ok');
    s3Relay.mode('silent');
    await phase('S3 silent (accepts, never answers)');
    s3Relay.mode('forward');
    await recovery('S3 silent', async () => (await upload()).status === 201);
    s3Relay.mode('refuse');
    await phase('S3 refusing connections');
    s3Relay.mode('forward');
    await recovery('S3 refusing', async () => (await upload()).status === 201);
    if (pgRelay) {
      pgRelay.mode('refuse');
      await phase('PostgreSQL refusing connections (stopped)');
      pgRelay.mode('forward');
      await recovery('PostgreSQL', async () => (await write()).status === 201);
    }
    const listed = (await must(base, 'GET', '/api/v1/estate?limit=1000', key)) as Array<{ name: string }>;
    const names = new Set(listed.map((e) => e.name));
    console.log(`\nwrites sent ${writes}, acknowledged ${acknowledged.length}, lost ${acknowledged.filter((n) => !names.has(n)).length}`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    // An outage's end line is written 30 s after its last refusal, or at shutdown.
    const ends = log
      .split('\n')
      .filter((l) => l.includes('Outage over'))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    console.log(`\noutage end lines (30 s after the last refusal, or at shutdown): ${ends.join(' | ')}`);
    redis.kill('SIGKILL');
    await s3Relay.close();
    await s3.close();
    await pgRelay?.close();
    await dropDatabase?.();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
