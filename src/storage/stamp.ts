import path from 'node:path';
import type { Config } from '../config.js';
import type { Queryable } from '../db/client.js';
import type { BlobStore } from './blob-store.js';

/**
 * Which database a file storage belongs to (issue 25, item 1). Asset rows live in the database and
 * their bytes in the storage; the two only make sense together. The storage carries a stamp (the
 * file DATA_DIR/files/.pps-storage.json, or the object .pps-storage.json in the bucket) with the
 * random id of the database that first used it (table database_identity) and, for people, a
 * description of that database without credentials. The server refuses to start against storage
 * another database stamped, so switching DATABASE_URL with the same DATA_DIR (or bucket) stops
 * with a message instead of serving another database's files or cleaning them up.
 */
export interface StorageStamp {
  service: 'estate-publisher';
  format: 1;
  databaseId: string;
  database: string;
  stampedAt: string;
}

/** The storage belongs to another database (or its stamp is unreadable): the server does not start. */
export class StorageOwnershipError extends Error {}

/** How many of this database's newest assets are looked for in unstamped storage that holds files. */
const ADOPTION_SAMPLE = 20;

/** The database as people know it, without credentials: the PGlite directory, or PostgreSQL's host, port and name. */
export function describeDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `the embedded database (PGlite) in ${path.join(config.dataDir, 'pglite')}`;
  try {
    const url = new URL(config.databaseUrl);
    const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default database)';
    const host = url.hostname || url.searchParams.get('host') || 'localhost';
    return `PostgreSQL database "${name}" on ${host}:${url.port || '5432'}`;
  } catch {
    return 'the PostgreSQL database of DATABASE_URL';
  }
}

export async function databaseId(db: Queryable): Promise<string> {
  const [row] = await db.query<{ id: string }>('SELECT id FROM database_identity');
  if (!row) throw new Error('database_identity has no row; the migrations did not run');
  return row.id;
}

function parseStamp(text: string, where: string): StorageStamp {
  try {
    const stamp = JSON.parse(text) as Partial<StorageStamp>;
    if (typeof stamp.databaseId === 'string' && stamp.databaseId.length > 0) {
      return { service: 'estate-publisher', format: 1, database: 'an unnamed database', stampedAt: '', ...stamp } as StorageStamp;
    }
  } catch {
    // falls through
  }
  throw new StorageOwnershipError(
    `the storage stamp .pps-storage.json in ${where} cannot be read; it names the database the files belong to. ` +
      'Restore it from a backup, or remove it only if the files are this database’s (it is then written again). Not starting.',
  );
}

async function hasObjects(storage: BlobStore): Promise<boolean> {
  for await (const _ of storage.list()) return true;
  return false;
}

/** Whether any of this database's newest assets is in the storage. */
async function holdsOurFiles(db: Queryable, storage: BlobStore): Promise<boolean> {
  const rows = await db.query<{ storage_key: string }>('SELECT storage_key FROM assets ORDER BY created_at DESC LIMIT $1', [ADOPTION_SAMPLE]);
  for (const { storage_key } of rows) if (await storage.stat(storage_key)) return true;
  return false;
}

export type ClaimOutcome = 'owned' | 'stamped' | 'adopted';

/**
 * Checks (and on first use writes) the storage's stamp before the server touches a file.
 * - stamped by this database: go on;
 * - stamped by another: StorageOwnershipError naming both;
 * - no stamp, no file: stamp it;
 * - no stamp but files (storage from before stamps): adopt it only when at least one of this
 *   database's newest assets is among them; otherwise the files are another database's (the
 *   engine-switch case: a new PostgreSQL database on the embedded one's DATA_DIR), so refuse.
 *   Adopting deletes nothing: the sweep only ever removes what this database's outbox names.
 */
export async function claimStorage(db: Queryable, storage: BlobStore, database: string): Promise<ClaimOutcome> {
  const id = await databaseId(db);
  const where = storage.describe();
  const check = (text: string): 'owned' => {
    const stamp = parseStamp(text, where);
    if (stamp.databaseId === id) return 'owned';
    throw new StorageOwnershipError(
      `the file storage ${where} belongs to another database: ${stamp.database} (id ${stamp.databaseId}); ` +
        `this server's database is ${database} (id ${id}). Not starting, so that neither database's files are served or removed ` +
        '(see README, "Files and storage"). Start with the database those files belong to, or give this database its own ' +
        (storage.driver === 'disk' ? 'DATA_DIR.' : 'bucket or prefix (S3_BUCKET, S3_PREFIX).'),
    );
  };
  const existing = await storage.readStamp();
  if (existing !== undefined) return check(existing);

  let outcome: ClaimOutcome = 'stamped';
  if (await hasObjects(storage)) {
    if (!(await holdsOurFiles(db, storage))) {
      throw new StorageOwnershipError(
        `the file storage ${where} holds files written before storage stamps, and none of this database's assets are among them: ` +
          `they belong to another database, not to ${database} (id ${id}). Not starting, so that none of them is served or removed ` +
          '(see README, "Files and storage"). Start once with the database those files belong to (it stamps them), or give this ' +
          `database its own ${storage.driver === 'disk' ? 'DATA_DIR' : 'bucket or prefix (S3_BUCKET, S3_PREFIX)'}.`,
      );
    }
    outcome = 'adopted';
  }
  const stamp: StorageStamp = { service: 'estate-publisher', format: 1, databaseId: id, database, stampedAt: new Date().toISOString() };
  if (await storage.writeStamp(`${JSON.stringify(stamp, null, 2)}\n`)) {
    // A store that ignores the conditional create may have taken another writer's stamp over ours.
    const written = await storage.readStamp();
    if (written !== undefined) check(written);
    return outcome;
  }
  const raced = await storage.readStamp();
  if (raced === undefined) throw new StorageOwnershipError(`the storage stamp in ${where} could not be written`);
  return check(raced);
}
