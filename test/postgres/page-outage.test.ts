import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { DiskBlobStore } from '../../src/storage/disk.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { POSTGRES_DIRECT_ADMIN_URL, createTestDatabaseUrl } from '../helpers/database.js';

/**
 * The database unreachable while the page is read (issue 33). The app's pool logs in as its own role,
 * which the test stops at CONNECTION LIMIT 0 with its sessions terminated, as an operator or a failover
 * would; the LISTEN connection logs in as another role and stays up, so the caches stay trusted and only
 * keeping a failed read could show a stale page afterwards.
 */
describe('the page while the database refuses the service’s connections (PostgreSQL)', () => {
  const role = `pps_app_${randomBytes(4).toString('hex')}`;
  let created: Awaited<ReturnType<typeof createTestDatabaseUrl>>;
  let admin: pg.Client;
  let db: Database;
  let app: FastifyInstance;
  let dataDir: string;
  let key: string;
  let estateId: string;
  let slug: string;
  let navigatorId: string;
  let apartmentId: string;

  const inject = (method: string, url: string, body?: unknown) =>
    app.inject({ method: method as never, url, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { payload: body as object } : {}) });
  const page = (query = '') => app.inject({ method: 'GET', url: `/p/${slug}${query}` });

  beforeAll(async () => {
    created = await createTestDatabaseUrl();
    const direct = new URL(created.directUrl);
    // On the server's own database: dropping the test's database ends every session on it.
    admin = new pg.Client({ connectionString: POSTGRES_DIRECT_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`ALTER DATABASE ${direct.pathname.slice(1)} OWNER TO ${role}`);
    // Straight to PostgreSQL, also in the PgBouncer tier: the pooler knows only the users of its
    // auth file, and what is tested is the server refusing the service's role, not the pooler.
    const appUrl = new URL(created.directUrl);
    appUrl.username = role;
    db = await openDatabase({ databaseUrl: appUrl.toString(), poolSize: 4 });
    await migrate(db);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-page-outage-'));
    const config = loadConfig({
      ADMIN_TOKEN,
      DATA_DIR: dataDir,
      DATABASE_URL: appUrl.toString(),
      DATABASE_DIRECT_URL: created.directUrl,
      PUBLIC_URL: 'http://localhost:3000',
      LOG_LEVEL: 'silent',
      CACHE_TTL_MS: '3600000',
    });
    app = await buildApp({ config, db, storage: new DiskBlobStore(path.join(dataDir, 'files')), logger: false });
    await app.ready();
    for (let i = 0; i < 400 && !app.services.pages.pages.isTrusted; i++) await new Promise((r) => setTimeout(r, 25));
    const org = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/organizations',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { name: 'Outage' },
    });
    key = org.json().apiKey;
    const setup = (await inject('POST', '/api/v1/estate/setup', { name: 'Outage Estate' })).json();
    ({ slug, id: estateId } = setup.estate);
    navigatorId = setup.navigator.id;
    apartmentId = (await inject('POST', '/api/v1/apartment', { buildingId: setup.building.id, name: 'Only Home' })).json().id;
    expect((await inject('PUT', `/api/v1/estates/${estateId}/page`, { enabled: true })).statusCode).toBe(200);
  });

  afterAll(async () => {
    await admin?.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`).catch(() => undefined);
    await app?.close();
    await db?.close();
    await created?.drop();
    await admin?.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
    await admin?.end();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After for the page, its homes, the navigator and the page settings; after recovery the page has its navigator and a new ETag', async () => {
    expect(app.services.pages.pages.isTrusted).toBe(true);
    const before = await page();
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain(`id="navigator-${navigatorId}"`);
    // The page changes (the navigator's title), then the database refuses the service.
    expect((await inject('PATCH', `/api/v1/navigator/${navigatorId}`, { seoTitle: 'Back Again' })).statusCode).toBe(200);
    await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT 0`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
    try {
      for (const res of [await page(), await page(`?apartment=${apartmentId}`), await page('?status=SOLD')]) {
        expect(res.statusCode).toBe(503);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers['cache-control']).toBe('no-store');
      }
      for (const res of [
        await inject('GET', `/api/v1/navigator/${navigatorId}`),
        await inject('GET', `/api/v1/estates/${estateId}/page`),
        await inject('PUT', `/api/v1/estates/${estateId}/page`, { showInquiryForm: false }),
      ]) {
        expect(res.statusCode).toBe(503);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
      }
    } finally {
      await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`);
    }
    let after = await page();
    for (let i = 0; i < 50 && after.statusCode !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await page();
    }
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain(`id="navigator-${navigatorId}"`);
    expect(after.body).toContain('<title>Back Again</title>');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // The PUT refused during the outage changed nothing.
    expect((await inject('GET', `/api/v1/estates/${estateId}/page`)).json().showInquiryForm).toBe(true);
  });
});
