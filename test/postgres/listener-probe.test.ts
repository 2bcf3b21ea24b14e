import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { DiskBlobStore } from '../../src/storage/disk.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { createTestDatabaseUrl } from '../helpers/database.js';

/**
 * A LISTEN connection on which notifications never arrive (as through a transaction-pooling PgBouncer,
 * simulated here by a direct URL naming another database: notifications are per database) must not
 * make the public cache trusted, or other instances' writes would never reach it.
 */
describe('add-on change listener that receives nothing', () => {
  const drops: Array<() => Promise<void>> = [];
  let db: Database;
  let app: FastifyInstance;
  let dataDir: string;
  let log = '';

  beforeAll(async () => {
    const service = await createTestDatabaseUrl();
    const elsewhere = await createTestDatabaseUrl();
    drops.push(service.drop, elsewhere.drop);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-probe-'));
    db = await openDatabase({ databaseUrl: service.url, poolSize: 2 });
    await migrate(db);
    const config = loadConfig({ DATABASE_URL: service.url, DATABASE_DIRECT_URL: elsewhere.directUrl, ADMIN_TOKEN, DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    app = await buildApp({ config, db, storage: new DiskBlobStore(path.join(dataDir, 'files')), logger: { level: 'warn', stream } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    for (const drop of drops) await drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps verifying versions and says why', async () => {
    for (let i = 0; i < 200 && !log.includes('DATABASE_DIRECT_URL'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(log).toContain('notifications do not arrive on the LISTEN connection');
    expect(app.services.addons.publicCache.isTrusted).toBe(false);
  });
});
