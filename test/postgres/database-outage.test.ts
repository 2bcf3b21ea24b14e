import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { DiskBlobStore } from '../../src/storage/disk.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { createTestDatabaseUrl } from '../helpers/database.js';
import { logSink } from '../helpers/log-sink.js';

/**
 * PostgreSQL going away mid-traffic. The app reaches the server through a TCP relay the test owns;
 * "stopping PostgreSQL" closes the relay and every connection through it, as a server shutdown does.
 */
class Relay {
  private server: net.Server | undefined;
  private sockets = new Set<net.Socket>();
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      this.sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** A fresh migrated database reached through a Relay the test stops; `via` is the URL relayed (directUrl: PostgreSQL itself, never PgBouncer). */
async function relayedDatabase(via: 'url' | 'directUrl', tmpPrefix: string) {
  const created = await createTestDatabaseUrl();
  const target = new URL(created[via]);
  const relay = new Relay(await freePort(), { host: target.hostname, port: Number(target.port || 5432) });
  await relay.start();
  target.hostname = '127.0.0.1';
  target.port = String(relay.port);
  const url = target.toString();
  const db = await openDatabase({ databaseUrl: url, poolSize: 4 });
  await migrate(db);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), tmpPrefix));
  return {
    relay,
    db,
    url,
    dataDir,
    async close() {
      await db.close();
      await relay.stop();
      await created.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe('PostgreSQL stopped mid-traffic', () => {
  let relay: Relay;
  let app: FastifyInstance;
  let env: Awaited<ReturnType<typeof relayedDatabase>>;
  let key: string;

  beforeAll(async () => {
    env = await relayedDatabase('url', 'pps-outage-');
    relay = env.relay;
    const config = loadConfig({ ADMIN_TOKEN, DATA_DIR: env.dataDir, DATABASE_URL: env.url, LOG_LEVEL: 'silent' });
    app = await buildApp({ config, db: env.db, storage: new DiskBlobStore(path.join(env.dataDir, 'files')), logger: false });
    await app.ready();
    const org = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/organizations',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { name: 'Outage' },
    });
    key = org.json().apiKey;
  });

  afterAll(async () => {
    await app?.close();
    await env?.close();
  });

  const createEstate = (name: string) => app.inject({ method: 'POST', url: '/api/v1/estate', headers: { authorization: `Bearer ${key}` }, payload: { name } });

  it('answers 503 in the error shape while the database is gone, reports it in readiness, and recovers by itself', async () => {
    const before = await createEstate('Before outage');
    expect(before.statusCode).toBe(201);

    // Traffic in flight while the server goes away.
    const inFlight = Promise.all(Array.from({ length: 10 }, (_, i) => createEstate(`During ${i}`)));
    await relay.stop();
    const during = await inFlight;
    for (const res of during) {
      expect([201, 503]).toContain(res.statusCode);
      if (res.statusCode === 503) expect(res.json()).toEqual({ statusCode: 503, message: expect.any(String), error: 'Service Unavailable' });
    }

    const down = await createEstate('While down');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(down.body).not.toMatch(/ECONNREFUSED|at .*\.js|SELECT|INSERT/);
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.database).toBe('unavailable');
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);

    await relay.start();
    let recovered = 0;
    for (let i = 0; i < 50 && recovered !== 201; i++) {
      recovered = (await createEstate(`After outage ${i}`)).statusCode;
      if (recovered !== 201) await new Promise((r) => setTimeout(r, 200));
    }
    expect(recovered).toBe(201);
    expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);

    // Every acknowledged create is stored; nothing unacknowledged half-exists.
    const list = await app.inject({ method: 'GET', url: '/api/v1/estate?limit=1000', headers: { authorization: `Bearer ${key}` } });
    const names = (list.json() as Array<{ name: string }>).map((e) => e.name);
    expect(names).toContain('Before outage');
    for (const [i, res] of during.entries()) if (res.statusCode === 201) expect(names).toContain(`During ${i}`);
  });
});

/**
 * The background tasks that retry by themselves while PostgreSQL is gone (the change listener's LISTEN
 * connection, the webhook worker's LISTEN and its claim): one warn line each when they start failing,
 * their retries at debug, one info line each when they work again; not a warn line per retry.
 */
describe('PostgreSQL stopped for seconds with nothing asked of the service: the log', () => {
  const log = logSink();
  let relay: Relay;
  let app: FastifyInstance;
  let env: Awaited<ReturnType<typeof relayedDatabase>>;

  beforeAll(async () => {
    // PostgreSQL itself, never a transaction pooler (the PgBouncer tier): LISTEN needs a session.
    env = await relayedDatabase('directUrl', 'pps-outage-log-');
    relay = env.relay;
    const config = loadConfig({ ADMIN_TOKEN, DATA_DIR: env.dataDir, DATABASE_URL: env.url });
    app = await buildApp({
      config,
      db: env.db,
      storage: new DiskBlobStore(path.join(env.dataDir, 'files')),
      logger: { level: 'debug', stream: log.stream },
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await env?.close();
  });

  const TASKS = {
    'change listener': 'change listener unavailable; public reads verify versions and API keys are looked up on every request',
    'webhook delivery worker: LISTEN': 'webhook delivery worker: LISTEN unavailable; polling',
  };

  it('logs each task once at warn when it starts failing and once at info when it works again', async () => {
    // Both LISTEN connections up before the outage.
    await new Promise((r) => setTimeout(r, 1_500));
    log.clear();
    await relay.stop();
    await new Promise((r) => setTimeout(r, 6_000));
    await relay.start();
    const recovered = (task: string) => log.lines().some((l) => l.level === 30 && l.msg.startsWith(`${task}: working again after`));
    for (let i = 0; i < 100 && !Object.keys(TASKS).every(recovered); i++) await new Promise((r) => setTimeout(r, 100));

    const lines = log.lines();
    for (const [task, msg] of Object.entries(TASKS)) {
      expect(
        lines.filter((l) => l.msg === msg && l.level === 40),
        task,
      ).toHaveLength(1);
      // Retried every second for six seconds: the retries are there, at debug.
      expect(lines.filter((l) => l.msg === msg && l.level === 20).length, task).toBeGreaterThanOrEqual(2);
      expect(recovered(task), task).toBe(true);
    }
    // Whatever else failed in the background said so at most once too.
    const warned = lines.filter((l) => l.level >= 40).map((l) => l.msg);
    expect(new Set(warned).size).toBe(warned.length);
  });
});
