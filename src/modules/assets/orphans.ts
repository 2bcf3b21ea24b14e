import type { Queryable } from '../../db/client.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { variantKey } from './images/variant-keys.js';
import { storageIntents } from './intents.js';
import { assetsRepository } from './repository.js';
import { VARIANT_WIDTHS } from './schemas.js';

const BATCH = 500;

/**
 * Finishes the storage work a crash interrupted, from the outbox only (storage_intents): for each
 * intent recorded before `olderThan` whose key no asset row names (an upload that died before its row,
 * a delete that died after its row went, a variant job whose asset was deleted under it), the object
 * and its variants are removed; then the intent goes. An intent whose asset exists only goes. A file
 * this database never recorded is never touched: the storage may hold another database's files, or
 * files from before this outbox existed. Also removes partial writes (temporary files) older than
 * `olderThan`. When this process owns the storage alone (DATA_DIR lock) the sweep runs before
 * listening with no age margin; with shared storage it runs in the background and only takes intents
 * older than any request can live.
 */
export async function sweepOrphans(db: Queryable, storage: BlobStore, olderThan: Date): Promise<{ objects: number; temporary: number }> {
  const temporary = await storage.purgeTemporary(olderThan);
  let objects = 0;
  for (;;) {
    const intents = await storageIntents.older(db, olderThan, BATCH);
    if (intents.length === 0) break;
    const known = new Set(await assetsRepository.existingKeys(db, [...new Set(intents.map((i) => i.storageKey))]));
    const removed = new Set<string>();
    for (const { storageKey } of intents) {
      if (known.has(storageKey) || removed.has(storageKey)) continue;
      const existed = await storage.stat(storageKey);
      await storage.delete(storageKey);
      await Promise.all(VARIANT_WIDTHS.map((w) => storage.delete(variantKey(storageKey, w))));
      removed.add(storageKey);
      if (existed) objects++;
    }
    await storageIntents.removeMany(
      db,
      intents.map((i) => i.id),
    );
    if (intents.length < BATCH) break;
  }
  return { objects, temporary };
}
