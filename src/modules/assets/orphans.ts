import type { Queryable } from '../../db/client.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { parseVariantKey } from './images/variant-keys.js';
import { assetsRepository } from './repository.js';

const BATCH = 500;

/**
 * Removes stored objects that no asset row names, and partial writes, older than `olderThan`. A
 * variant (`<key>-w<width>`) belongs to the asset of its original's key and goes with it.
 * An upload stores its bytes before its row, and a delete removes the row before the bytes; a
 * process killed between the two leaves an object nobody can reach. When this process owns the
 * storage alone (DATA_DIR lock) the sweep runs before listening with no age margin; with shared
 * storage it runs in the background and only touches objects older than any request can live.
 */
export async function sweepOrphans(db: Queryable, storage: BlobStore, olderThan: Date): Promise<{ objects: number; temporary: number }> {
  const temporary = await storage.purgeTemporary(olderThan);
  let objects = 0;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const owner = (key: string) => parseVariantKey(key)?.base ?? key;
    const known = new Set(await assetsRepository.existingKeys(db, [...new Set(batch.map(owner))]));
    for (const key of batch) {
      if (known.has(owner(key))) continue;
      await storage.delete(key);
      objects++;
    }
    batch = [];
  };
  for await (const object of storage.list()) {
    if (object.modifiedAt >= olderThan) continue;
    batch.push(object.key);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return { objects, temporary };
}
