import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { type DataDirLock, lockDataDir } from './db/data-dir-lock.js';
import { migrate } from './db/migrate.js';
import path from 'node:path';

export interface Runtime {
  db: Database;
  lock: DataDirLock | undefined;
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
    await migrate(db);
    return {
      db,
      lock,
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
