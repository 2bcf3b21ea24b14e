import { AsyncLocalStorage } from 'node:async_hooks';
import type { Queryable } from './client.js';

/** A transaction held open by its owner, ended explicitly. */
export interface HeldTransaction extends Queryable {
  commit(): Promise<void>;
  /** Never throws: a transaction that cannot be rolled back is dropped with its connection. */
  rollback(): Promise<void>;
}

/** What a Database needs to open one (see Database.begin). */
export interface TransactionOpener {
  begin(): Promise<HeldTransaction>;
}

/**
 * The database work of one request bound to one transaction, opened at its first query. While code
 * runs inside `boundWork.run(work, …)`, every `db.query` and `db.transaction` of that code joins the
 * transaction (a service's own transaction becomes a savepoint), and nothing commits until the owner
 * calls `commit`. The idempotency layer uses it so the claim of a key, the work and the stored answer
 * commit together; services keep their `db.transaction(async (tx) => …)` calls unchanged.
 */
export class BoundWork {
  private opening: Promise<HeldTransaction> | undefined;
  private ended = false;
  private savepoints = 0;

  /** `onBegin` runs first in the new transaction (the claim); when it throws, the transaction is rolled back. */
  constructor(private readonly onBegin: (tx: Queryable) => Promise<void>) {}

  /** Whether a transaction was opened (the request touched the database). */
  get started(): boolean {
    return this.opening !== undefined;
  }

  private enter(db: TransactionOpener): Promise<HeldTransaction> {
    if (this.ended) {
      return Promise.reject(new Error('The request has ended; its database work can no longer run'));
    }
    this.opening ??= (async () => {
      const tx = await db.begin();
      try {
        await this.onBegin(tx);
      } catch (err) {
        this.ended = true;
        await tx.rollback();
        throw err;
      }
      return tx;
    })();
    return this.opening;
  }

  async query<T>(db: TransactionOpener, sql: string, params?: readonly unknown[]): Promise<T[]> {
    return (await this.enter(db)).query<T>(sql, params);
  }

  async transaction<T>(db: TransactionOpener, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const tx = await this.enter(db);
    const name = `bound_work_${++this.savepoints}`;
    await tx.query(`SAVEPOINT ${name}`);
    try {
      const result = await fn(tx);
      await tx.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      // Undoes this part only; a later statement of the request then runs normally again.
      await tx.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Ends the work: runs `last` in the transaction and commits, or (without `last`) rolls back. Returns
   * false when no transaction was ever opened. Throws when `last` or the commit fails; the transaction
   * is then rolled back, so nothing of it is kept.
   */
  async end(last?: (tx: Queryable) => Promise<void>): Promise<boolean> {
    this.ended = true;
    const tx = await this.opening?.catch(() => undefined);
    if (!tx) return false;
    if (!last) {
      await tx.rollback();
      return true;
    }
    try {
      await last(tx);
    } catch (err) {
      await tx.rollback();
      throw err;
    }
    await tx.commit();
    return true;
  }
}

/** The request's bound work, when the current code runs for a keyed request. */
export const boundWork = new AsyncLocalStorage<BoundWork>();
