import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';

/** Which engine the integration tier runs on: PGlite by default, real PostgreSQL with TEST_DATABASE=postgres. */
export const TEST_DATABASE = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  db: Database;
  /** Set on PostgreSQL: the URL of this test's own database (for a second server process). */
  url: string | undefined;
  drop(): Promise<void>;
}

/** A fresh database with a random name, migrated; dropped by drop(). */
export async function createTestDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pps_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DATABASE === 'postgres') {
    const { url, drop } = await createTestDatabaseUrl();
    const db = await openDatabase({ databaseUrl: url, poolSize: 5 });
    await migrate(db);
    return {
      db,
      url,
      drop: async () => {
        await db.close();
        await drop();
      },
    };
  }
  const db = await openDatabase({});
  await migrate(db);
  return { db, url: undefined, drop: () => db.close() };
}
