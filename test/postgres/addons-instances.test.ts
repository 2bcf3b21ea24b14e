import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { DiskBlobStore } from '../../src/storage/disk.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { createTestDatabaseUrl } from '../helpers/database.js';

/**
 * Two instances on one PostgreSQL database (always real PostgreSQL: the cross-instance path only
 * exists there). A write on one must reach the other's cached public document.
 */
describe('add-on public documents across instances (PostgreSQL)', () => {
  let drop: () => Promise<void>;
  let dataDir: string;
  const dbs: Database[] = [];
  const apps: FastifyInstance[] = [];

  const until = async (what: string, check: () => Promise<boolean> | boolean) => {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  beforeAll(async () => {
    const created = await createTestDatabaseUrl();
    drop = created.drop;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-instances-'));
    for (let i = 0; i < 2; i++) {
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
      });
      const app = await buildApp({ config, db, storage: new DiskBlobStore(path.join(dataDir, 'files')), logger: false });
      await app.ready();
      apps.push(app);
    }
    await until('both listeners', () => apps.every((a) => a.services.addons.publicCache.isTrusted));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const db of dbs) await db.close();
    await drop?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  const inject = (app: FastifyInstance, method: string, url: string, key?: string, body?: unknown) =>
    app.inject({
      method: method as never,
      url,
      headers: key ? { authorization: `Bearer ${key}` } : {},
      ...(body !== undefined ? { payload: body as object } : {}),
    });

  it('serves cached documents without a query, and sees another instance’s write through its notification', async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance];
    const org = (await inject(one, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Instances' })).json() as {
      organization: { id: string };
      apiKey: string;
    };
    const key = org.apiKey;
    const estate = (await inject(one, 'POST', '/api/v1/estate', key, { name: 'Twin Towers' })).json() as { id: string };
    const url = `/api/v1/estates/${estate.id}/gallery`;
    const asset = await insertAssetRow(dbs[0]!, org.organization.id);
    expect((await inject(one, 'PUT', url, key, { enabled: true })).statusCode).toBe(200);
    expect((await inject(one, 'POST', `${url}/items`, key, { assetId: asset.id })).statusCode).toBe(201);

    await until('instance two to see the first item', async () => (await inject(two, 'GET', url)).json().items.length === 1);
    // Once the notifications of those writes have arrived, reads are served without a query.
    const db2 = dbs[1]!;
    const original = db2.query.bind(db2);
    let queries = 0;
    db2.query = ((sql: string, params?: readonly unknown[]) => {
      queries++;
      return original(sql, params);
    }) as typeof db2.query;
    let cached = await inject(two, 'GET', url);
    try {
      await until('a read served from the cache', async () => {
        const before = queries;
        cached = await inject(two, 'GET', url);
        return queries === before;
      });
    } finally {
      db2.query = original;
    }
    expect(cached.statusCode).toBe(200);
    expect(cached.json().items).toHaveLength(1);

    expect((await inject(one, 'POST', `${url}/items`, key, { assetId: asset.id, caption: 'Second' })).statusCode).toBe(201);
    await until('instance two to see the second item', async () => (await inject(two, 'GET', url)).json().items.length === 2);
    expect((await inject(two, 'GET', url)).headers.etag).not.toBe(cached.headers.etag);
  });

  it('without its listener an instance verifies the version on every read, so nothing stale is served', async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance];
    const org = (await inject(one, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Verify' })).json() as {
      organization: { id: string };
      apiKey: string;
    };
    const estate = (await inject(one, 'POST', '/api/v1/estate', org.apiKey, { name: 'Verify Estate' })).json() as { id: string };
    const url = `/api/v1/estates/${estate.id}/downloads`;
    await inject(one, 'PUT', url, org.apiKey, { enabled: true });
    await until('instance two to see the add-on enabled', async () => (await inject(two, 'GET', url)).json().enabled === true);
    two.services.addons.publicCache.setTrusted(false);
    try {
      expect((await inject(one, 'POST', `${url}/groups`, org.apiKey, { title: 'Now' })).statusCode).toBe(201);
      expect((await inject(two, 'GET', url)).json().groups).toHaveLength(1);
    } finally {
      two.services.addons.publicCache.setTrusted(true);
    }
  });
});
