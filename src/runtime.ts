import path from 'node:path';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { type DataDirLock, acquireDataDirLock } from './db/data-dir-lock.js';
import { migrate } from './db/migrate.js';

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
export async function openRuntime(config: Readonly<Config>, purpose: string, options: { ownsFiles?: boolean } = {}): Promise<Runtime> {
  const needsLock = !config.databaseUrl || (options.ownsFiles === true && config.storage.driver === 'disk');
  const lock = needsLock ? await acquireDataDirLock(config.dataDir, purpose) : undefined;
  try {
    // PGlite in a worker thread: its SQL never blocks this thread's event loop (issue 14).
    const db = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: path.join(config.dataDir, 'pglite'),
      thread: true,
      threadPriority: config.databaseThreadPriority,
    });
    const applied = await migrate(db).catch(async (err: unknown) => {
      await db.close();
      throw err;
    });
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
