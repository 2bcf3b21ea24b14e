import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { DiskBlobStore } from '../../src/storage/disk.js';
import { ADMIN_TOKEN } from './app.js';
import { createTestDatabaseUrl } from './database.js';
import { installResponseContract } from './response-contract.js';

/**
 * Several app instances on one fresh PostgreSQL database, each with its own pool and its LISTEN
 * connection (DATABASE_DIRECT_URL), as instances behind a balancer would run; `env` adds configuration. Always real PostgreSQL:
 * what crosses instances only exists there.
 */
export async function createInstances(
  count: number,
  env: Record<string, string> = {},
): Promise<{ apps: FastifyInstance[]; dbs: Database[]; close(): Promise<void> }> {
  const created = await createTestDatabaseUrl();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-instances-'));
  const apps: FastifyInstance[] = [];
  const dbs: Database[] = [];
  for (let i = 0; i < count; i++) {
    const db = await openDatabase({ databaseUrl: created.url, poolSize: 3 });
    if (i === 0) await migrate(db);
    dbs.push(db);
    const config = loadConfig({
      DATABASE_URL: created.url,
      DATABASE_DIRECT_URL: created.directUrl,
      ADMIN_TOKEN,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://localhost:3000',
      ...env,
    });
    const app = await buildApp({ config, db, storage: new DiskBlobStore(path.join(dataDir, 'files')), logger: false, testHooks: installResponseContract });
    await app.ready();
    apps.push(app);
  }
  return {
    apps,
    dbs,
    async close() {
      for (const app of apps) await app.close();
      for (const db of dbs) await db.close();
      await created.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
