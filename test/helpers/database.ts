import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';

// Under vitest, the run's migrated PGlite snapshot (test/helpers/pglite-snapshot.ts, globalSetup); the
// benchmarks import these helpers outside vitest, where importing it throws, and start empty databases.
const inject = process.env.VITEST ? (await import('vitest')).inject : () => undefined;

/** Which engine the integration tier runs on: PGlite by default, real PostgreSQL with TEST_DATABASE=postgres. */
export const TEST_DATABASE = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * The same server without a pooler in between. CI runs the PostgreSQL tier once more with
 * TEST_POSTGRES_URL pointing at a transaction-pooling PgBouncer and this at PostgreSQL itself,
 * as DATABASE_URL and DATABASE_DIRECT_URL would be in such a deployment.
 */
export const POSTGRES_DIRECT_ADMIN_URL = process.env.TEST_POSTGRES_DIRECT_URL ?? POSTGRES_ADMIN_URL;

export interface TestDatabase {
  db: Database;
  /** Set on PostgreSQL: the URL of this test's own database (for a second server process). */
  url: string | undefined;
  /** Set on PostgreSQL: the same database without PgBouncer (DATABASE_DIRECT_URL). */
  directUrl: string | undefined;
  drop(): Promise<void>;
}

const withDatabase = (base: string, name: string) => {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * A fresh, empty database with a random name; dropped by drop(). `url` is the one the service uses
 * (DATABASE_URL, through PgBouncer when the tier runs through it), `directUrl` its DATABASE_DIRECT_URL.
 */
export async function createTestDatabaseUrl(): Promise<{ url: string; directUrl: string; drop: () => Promise<void> }> {
  const name = `pps_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_DIRECT_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: withDatabase(POSTGRES_ADMIN_URL, name),
    directUrl: withDatabase(POSTGRES_DIRECT_ADMIN_URL, name),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_DIRECT_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DATABASE === 'postgres') {
    const { url, directUrl, drop } = await createTestDatabaseUrl();
    const db = await openDatabase({ databaseUrl: url, poolSize: 5 });
    await migrate(db);
    return {
      db,
      url,
      directUrl,
      drop: async () => {
        await db.close();
        await drop();
      },
    };
  }
  const db = await openDatabase({ snapshot: await migratedSnapshot() });
  await migrate(db);
  // Every copy of the snapshot would otherwise be the same database to the storage stamp (issue 25):
  // each test database is its own, as a freshly migrated one is.
  await db.query('UPDATE database_identity SET id = gen_random_uuid()');
  return { db, url: undefined, directUrl: undefined, drop: () => db.close() };
}

/**
 * The migrated PGlite cluster test/helpers/pglite-snapshot.ts made for this run, as a dump to load
 * (undefined when the run has none: the database then starts empty and migrate() builds it).
 */
export async function migratedSnapshot(): Promise<Blob | undefined> {
  const snapshot = inject('pgliteSnapshot');
  return snapshot ? new Blob([await readFile(snapshot.dump)]) : undefined;
}

/** The migrated PGlite data directory of this run, for a server process's DATA_DIR/pglite; undefined when none. */
export const migratedDataDir = (): string | undefined => inject('pgliteSnapshot')?.dataDir;
