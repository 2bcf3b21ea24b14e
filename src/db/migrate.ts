import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../paths.js';
import type { Database, Queryable } from './client.js';
import { DATA_STEPS } from './data-steps.js';

const MIGRATIONS_DIR = path.join(projectRoot, 'migrations');
// Any constant works; it only has to be the same for every instance of this service.
const MIGRATION_LOCK_ID = 724_311_901;

export interface Migration {
  version: string;
  sql: string;
  checksum: string;
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => {
      const sql = await readFile(path.join(dir, file), 'utf8');
      return { version: file.replace(/\.sql$/, ''), sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Applies every migration not yet applied, each in its own transaction, in file order: its SQL, then
 * its data step when it has one (data-steps.ts; `dataSteps` adds steps for a test's own migrations),
 * in that transaction.
 * An applied migration whose file changed stops start-up: migrations are forward-only.
 *
 * On PostgreSQL every step takes a transaction-level advisory lock (pg_advisory_xact_lock) first and
 * reads what is applied inside that transaction, so two instances starting together apply each
 * migration once. Nothing holds a session across transactions, so this works through a PgBouncer in
 * transaction pooling mode (a session lock taken through it could land on one server connection and
 * be released on another).
 */
export async function migrate(db: Database, dir?: string, dataSteps: typeof DATA_STEPS = {}): Promise<string[]> {
  const migrations = await loadMigrations(dir);
  const applied: string[] = [];
  const locked = <T>(fn: (tx: Queryable) => Promise<T>) =>
    db.transaction(async (tx) => {
      if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
      return fn(tx);
    });

  await locked((tx) =>
    tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`),
  );
  for (;;) {
    const next = await locked(async (tx) => {
      const rows = await tx.query<{ version: string; checksum: string }>('SELECT version, checksum FROM schema_migrations');
      const done = new Map(rows.map((r) => [r.version, r.checksum]));
      for (const m of migrations) {
        const previous = done.get(m.version);
        if (previous === undefined) {
          for (const statement of splitStatements(m.sql)) await tx.query(statement);
          await (dataSteps[m.version] ?? DATA_STEPS[m.version])?.(tx);
          await tx.query('INSERT INTO schema_migrations (version, checksum) VALUES ($1, $2)', [m.version, m.checksum]);
          return m.version;
        }
        if (previous !== m.checksum) {
          throw new Error(`Migration ${m.version} was changed after it was applied; add a new migration instead`);
        }
      }
      return undefined;
    });
    if (next === undefined) return applied;
    applied.push(next);
  }
}

/** Splits a migration on semicolons at line ends; migrations keep one statement per such end. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
