import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { DATA_STEPS } from '../../src/db/data-steps.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { TEST_DATABASE, createTestDatabaseUrl } from '../helpers/database.js';

describe(`migration runner on ${TEST_DATABASE}`, () => {
  let dir: string;
  let db: Database;
  let drop: (() => Promise<void>) | undefined;
  let url: string | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pps-migrations-'));
    if (TEST_DATABASE === 'postgres') {
      const created = await createTestDatabaseUrl();
      drop = created.drop;
      url = created.url;
      db = await openDatabase({ databaseUrl: created.url, poolSize: 2 });
    } else {
      db = await openDatabase({});
    }
  });
  afterEach(async () => {
    await db.close();
    await drop?.();
    await rm(dir, { recursive: true, force: true });
  });

  it('applies numbered files once, in order, each statement of a file', async () => {
    await writeFile(path.join(dir, '0002_second.sql'), "INSERT INTO t (v) VALUES ('second');\n");
    await writeFile(path.join(dir, '0001_first.sql'), "-- a comment\nCREATE TABLE t (v text NOT NULL);\nINSERT INTO t (v) VALUES ('first');\n");
    await writeFile(path.join(dir, 'notes.txt'), 'not a migration');
    expect(await migrate(db, dir)).toEqual(['0001_first', '0002_second']);
    expect(await migrate(db, dir)).toEqual([]);
    expect((await db.query<{ v: string }>('SELECT v FROM t ORDER BY v')).map((r) => r.v)).toEqual(['first', 'second']);
    await writeFile(path.join(dir, '0003_third.sql'), "INSERT INTO t (v) VALUES ('third');\n");
    expect(await migrate(db, dir)).toEqual(['0003_third']);
  });

  it('refuses to start when an applied migration was edited', async () => {
    await writeFile(path.join(dir, '0001_first.sql'), 'CREATE TABLE t (v text);\n');
    await migrate(db, dir);
    await writeFile(path.join(dir, '0001_first.sql'), 'CREATE TABLE t (v text, w text);\n');
    await expect(migrate(db, dir)).rejects.toThrow(/0001_first was changed after it was applied/);
  });

  it('a failing migration leaves nothing of itself behind', async () => {
    await writeFile(path.join(dir, '0001_first.sql'), 'CREATE TABLE t (v text);\n');
    await writeFile(path.join(dir, '0002_broken.sql'), 'CREATE TABLE u (v text);\nINSERT INTO nowhere VALUES (1);\n');
    await expect(migrate(db, dir)).rejects.toThrow();
    expect((await db.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version)).toEqual(['0001_first']);
    expect(await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'u'")).toEqual([]);
  });

  it('a data step runs after its migration’s SQL, in its transaction, once; a failing one leaves nothing behind', async () => {
    await writeFile(path.join(dir, '0001_first.sql'), 'CREATE TABLE t (v text NOT NULL);\n');
    await writeFile(path.join(dir, '0002_data.sql'), "INSERT INTO t (v) VALUES ('sql');\n");
    let runs = 0;
    const steps = {
      '0002_data': async (tx: { query(sql: string): Promise<unknown> }) => {
        runs++;
        await tx.query("UPDATE t SET v = v || ' then step'");
        if (runs === 1) throw new Error('step failed');
      },
    };
    await expect(migrate(db, dir, steps)).rejects.toThrow(/step failed/);
    expect(await db.query('SELECT v FROM t')).toEqual([]);
    expect(await migrate(db, dir, steps)).toEqual(['0002_data']);
    expect(await migrate(db, dir, steps)).toEqual([]);
    expect(runs).toBe(2);
    expect(await db.query('SELECT v FROM t')).toEqual([{ v: 'sql then step' }]);
  });

  it('every shipped data step belongs to a shipped migration', async () => {
    const versions = (await loadMigrations()).map((m) => m.version);
    expect(Object.keys(DATA_STEPS).length).toBeGreaterThan(0);
    for (const version of Object.keys(DATA_STEPS)) expect(versions).toContain(version);
  });

  it('instances starting together apply each migration once (a transaction-level lock, PgBouncer-safe)', async () => {
    const shipped = await loadMigrations();
    // On PostgreSQL three pools, as three instances would have; on PGlite one database serialises them.
    const others = url ? await Promise.all([0, 1].map(() => openDatabase({ databaseUrl: url, poolSize: 2 }))) : [];
    try {
      const results = await Promise.all([db, ...others, ...(url ? [] : [db, db])].map((d) => migrate(d)));
      expect(results.flat().sort()).toEqual(shipped.map((m) => m.version).sort());
      const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(rows[0]!.n).toBe(shipped.length);
    } finally {
      for (const other of others) await other.close();
    }
  });

  it('the shipped migrations apply to an empty database', async () => {
    const shipped = await loadMigrations();
    expect(shipped.map((m) => m.version)[0]).toBe('0001_foundation');
    expect(await migrate(db)).toEqual(shipped.map((m) => m.version));
  });
});
