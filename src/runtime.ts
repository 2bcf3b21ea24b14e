import path from 'node:path';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { type DataDirLock, acquireDataDirLock } from './db/data-dir-lock.js';
import { loadMigrations, migrate } from './db/migrate.js';
import { setHashingPriority } from './modules/dashboard/people/hashing-priority.js';
import { type StartupLog, describeDatabase, describeMigrations } from './startup-log.js';

export interface Runtime {
  db: Database;
  lock: DataDirLock | undefined;
  /** Versions of the migrations this open applied (empty when the schema was current). */
  applied: string[];
  close(): Promise<void>;
}

/**
 * Opens the database the configuration names, migrated: PostgreSQL when DATABASE_URL is set,
 * otherwise embedded PGlite under DATA_DIR, guarded by the exclusive DATA_DIR lock. The server also
 * takes the lock when it keeps files on local disk (`ownsFiles`), so it alone cleans up after a crash.
 */
export async function openRuntime(
  config: Readonly<Config>,
  purpose: string,
  options: {
    ownsFiles?: boolean;
    /** Where the start says which database it opens and what the migrations did (the server's logger). */
    log?: StartupLog | undefined;
    /** Called at once when another live process holds DATA_DIR and the start waits for it (LOCK_WAIT_MS). */
    onLockWait?: ((holder: string, waitMs: number) => void) | undefined;
  } = {},
): Promise<Runtime> {
  const needsLock = !config.databaseUrl || (options.ownsFiles === true && config.storage.driver === 'disk');
  const lock = needsLock ? await acquireDataDirLock(config.dataDir, purpose, undefined, options.onLockWait) : undefined;
  try {
    const database = describeDatabase(config);
    options.log?.info(database.fields, database.msg);
    // PGlite in a worker thread: its SQL never blocks this thread's event loop (issue 14).
    const db = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: path.join(config.dataDir, 'pglite'),
      thread: true,
      threadPriority: config.databaseThreadPriority,
    });
    // Password hashing yields the CPU as the database thread does (dashboard/people/passwords.ts).
    setHashingPriority(config.databaseThreadPriority);
    const started = performance.now();
    const applied = await migrate(db).catch(async (err: unknown) => {
      await db.close();
      throw err;
    });
    if (options.log) {
      const migrations = describeMigrations(applied, (await loadMigrations()).length, performance.now() - started);
      options.log.info(migrations.fields, migrations.msg);
    }
    return {
      db,
      lock,
      applied,
      async close() {
        await db.close();
        lock?.release();
      },
    };
  } catch (err) {
    lock?.release();
    throw err;
  }
}
