import path from 'node:path';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { type DataDirLock, lockDataDir } from './db/data-dir-lock.js';
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
 * otherwise embedded PGlite under DATA_DIR, guarded by the exclusive DATA_DIR lock.
 */
export async function openRuntime(config: Readonly<Config>, purpose: string): Promise<Runtime> {
  const lock = config.databaseUrl ? undefined : lockDataDir(config.dataDir, purpose);
  try {
    const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, 'pglite') });
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
