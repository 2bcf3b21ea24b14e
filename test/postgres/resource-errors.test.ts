import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase, poolStats } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { DiskBlobStore } from '../../src/storage/disk.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { POSTGRES_DIRECT_ADMIN_URL, createTestDatabaseUrl } from '../helpers/database.js';
import { logSink } from '../helpers/log-sink.js';

/**
 * PostgreSQL refusing for want of resources (SQLSTATE class 53): the service's pool connects as a role
 * of the test's own, whose CONNECTION LIMIT the test lowers to 0 mid-run.
 */
describe('PostgreSQL out of connections (53300)', () => {
  const role = `pps_limited_${randomBytes(5).toString('hex')}`;
  const log = logSink();
  let app: FastifyInstance;
  let db: Database;
  let drop: () => Promise<void>;
  let dataDir: string;
  let limitedUrl: string;
  let key: string;

  const admin = async <T>(url: string, run: (c: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    const created = await createTestDatabaseUrl();
    drop = created.drop;
    await admin(POSTGRES_DIRECT_ADMIN_URL, (c) => c.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 4`));
    const setup = await openDatabase({ databaseUrl: created.directUrl, poolSize: 1 });
    await migrate(setup);
    await setup.close();
    await admin(created.directUrl, (c) =>
      c.query(
        `GRANT ALL ON SCHEMA public TO ${role}; GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}; GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ${role}`,
      ),
    );
    const url = new URL(created.directUrl);
    url.username = role;
    limitedUrl = url.toString();
    db = await openDatabase({ databaseUrl: limitedUrl, poolSize: 4 });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-limited-'));
    // The change listener's session connects as the owner (DATABASE_URL); the pool as the limited role.
    const config = loadConfig({ ADMIN_TOKEN, DATA_DIR: dataDir, DATABASE_URL: created.directUrl });
    app = await buildApp({ config, db, storage: new DiskBlobStore(path.join(dataDir, 'files')), logger: { level: 'debug', stream: log.stream } });
    await app.ready();
    const org = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/organizations',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { name: 'Limited' },
    });
    key = org.json().apiKey;
    expect(org.statusCode).toBe(201);
  });

  afterAll(async () => {
    await app?.close();
    await db?.close();
    await drop?.();
    await admin(POSTGRES_DIRECT_ADMIN_URL, (c) => c.query(`DROP ROLE IF EXISTS ${role}`));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 naming the database with Retry-After, logs one outage (not one line per request), and recovers', async () => {
    const list = () => app.inject({ method: 'GET', url: '/api/v1/estate', headers: { authorization: `Bearer ${key}`, 'x-request-id': 'limited-1' } });
    expect((await list()).statusCode).toBe(200);
    // The role may open no connection now; its open ones are ended, so the pool must connect anew.
    await admin(POSTGRES_DIRECT_ADMIN_URL, async (c) => {
      await c.query(`ALTER ROLE ${role} CONNECTION LIMIT 0`);
      await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
    });
    for (let i = 0; i < 100 && (poolStats(db)?.total ?? 0) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(poolStats(db)?.total).toBe(0);
    const burst = await Promise.all(Array.from({ length: 20 }, () => list()));
    for (const res of burst) {
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ statusCode: 503, message: 'The database has no free connection; retry later', error: 'Service Unavailable' });
      expect(res.headers['retry-after']).toBe('2');
      expect(res.headers['x-request-id']).toBe('limited-1');
    }
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.database).toBe('unavailable');
    await admin(POSTGRES_DIRECT_ADMIN_URL, (c) => c.query(`ALTER ROLE ${role} CONNECTION LIMIT 4`));
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await list()).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);

    const warnings = log.lines().filter((l) => l.level >= 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ dependency: 'database', outage: 'unavailable', cause: { code: '53300' } });
    expect(log.lines().filter((l) => l.msg === 'request refused: database unavailable' && l.reqId === 'limited-1')).toHaveLength(20);
    await app.close();
    const after = log.lines().filter((l) => l.level >= 40);
    expect(after).toHaveLength(2);
    expect(after[1]).toMatchObject({
      dependency: 'database',
      outage: 'unavailable',
      refused: 20,
      msg: expect.stringMatching(/^Outage over: database unavailable; 20 requests/),
    });
  });
});
