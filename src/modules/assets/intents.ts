import { boundWork } from '../../db/bound-work.js';
import type { Queryable } from '../../db/client.js';
import { q } from '../../db/query.js';
import { newId } from '../../ids.js';

/**
 * The storage outbox (table storage_intents): a key this process is about to write or delete, recorded
 * before the storage is touched, so the start-up sweep can finish what a crash interrupted, and touch
 * nothing else. An intent names an asset's storage key; it covers the original and its variants.
 */
export const storageIntents = {
  /**
   * Records that `storageKey` is about to be written; returns the intent's id. Committed on its own,
   * outside any transaction the caller's request holds (a keyed upload's bound work): a process that
   * dies after the write must leave the intent behind, whatever becomes of that transaction.
   */
  record(db: Queryable, storageKey: string): Promise<string> {
    const id = newId();
    return boundWork.exit(async () => {
      await q(db).insertInto('storageIntents').values({ id, storageKey }).execute();
      return id;
    });
  },

  /** Records the intent inside the caller's transaction (an asset delete: it commits with the row's removal). */
  async recordIn(tx: Queryable, storageKey: string): Promise<string> {
    const id = newId();
    await q(tx).insertInto('storageIntents').values({ id, storageKey }).execute();
    return id;
  },

  /** The write or delete is settled: the intent goes. */
  async settle(db: Queryable, id: string): Promise<void> {
    await boundWork.exit(() => q(db).deleteFrom('storageIntents').where('id', '=', id).execute());
  },

  /** Intents recorded before `olderThan`, oldest first. */
  older(db: Queryable, olderThan: Date, limit: number): Promise<Array<{ id: string; storageKey: string }>> {
    return q(db)
      .selectFrom('storageIntents')
      .select(['id', 'storageKey'])
      .where('createdAt', '<', olderThan.toISOString())
      .orderBy('createdAt')
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  async removeMany(db: Queryable, ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await q(db).deleteFrom('storageIntents').where('id', 'in', ids).execute();
  },
};
