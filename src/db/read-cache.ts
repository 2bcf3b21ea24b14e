import type { Database } from './client.js';

export interface ReadCacheOptions<T> {
  /** Entries kept at most (oldest out first); 10,000 by default. */
  maxEntries?: number;
  /** With `maxWeight`: what an entry costs (bytes); entries go oldest first while the total is over. */
  weigh?: (value: T) => number;
  maxWeight?: number;
  /**
   * PostgreSQL only: an entry is used for at most this long, for the changes of other instances that
   * no notification reports (inserts: see the apartment lists in docs/decisions.md). Unbounded when unset.
   */
  ttlMs?: number;
}

interface Entry<T> {
  generation: number;
  value: T;
  /** When the read that made it began (performance.now()). */
  at: number;
  weight: number;
}

/**
 * Documents read by key, reused (the same object: callers must not change it) while nothing they may
 * contain can have changed:
 * - PGlite: this process is the only writer (DATA_DIR lock). The database's write generation moves with
 *   every statement that may write (when it is sent and when it ends) and every transaction's end
 *   (Database.writeGeneration); an entry is valid while it has not moved. No write path has to remember
 *   to invalidate.
 * - PostgreSQL: this instance's own writes move the same generation at once (read-your-writes), and
 *   triggers notify the channels after every statement that changes the tables the documents are read
 *   from (migrations/0010), on any instance or by hand; the LISTEN connection (src/db/change-listener.ts)
 *   moves this cache's generation too. While that connection is down the cache is untrusted and every
 *   read asks the database. `ttlMs` bounds what no notification reports.
 * A document read while the generation moved is not stored (it may have seen either state). Concurrent
 * reads of one key in one generation share one load (fifty clients missing together cost one statement).
 */
export class ReadCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly loading = new Map<string, { generation: number; promise: Promise<T | undefined> }>();
  private notified = 0;
  private trusted: boolean;
  private weight = 0;
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    private readonly db: Database,
    private readonly channel: string,
    private readonly options: ReadCacheOptions<T> = {},
  ) {
    this.trusted = db.kind === 'pglite';
    this.maxEntries = options.maxEntries ?? 10_000;
    this.ttlMs = db.kind === 'postgres' && options.ttlMs !== undefined ? options.ttlMs : Number.POSITIVE_INFINITY;
  }

  private generation(): number | undefined {
    // Both only grow: their sum moves whenever either does.
    return this.trusted ? this.db.writeGeneration() + this.notified : undefined;
  }

  async read(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const generation = this.generation();
    if (generation === undefined) return load();
    const entry = this.entries.get(key);
    if (entry && entry.generation === generation && performance.now() - entry.at < this.ttlMs) {
      this.stats.hits++;
      return entry.value;
    }
    const pending = this.loading.get(key);
    if (pending && pending.generation === generation) {
      this.stats.hits++;
      return pending.promise;
    }
    this.stats.misses++;
    const at = performance.now();
    const promise = load();
    this.loading.set(key, { generation, promise });
    try {
      const value = await promise;
      if (value !== undefined && this.generation() === generation) this.store(key, { generation, value, at, weight: this.options.weigh?.(value) ?? 0 });
      return value;
    } finally {
      if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
    }
  }

  private store(key: string, entry: Entry<T>): void {
    const max = this.options.maxWeight ?? Number.POSITIVE_INFINITY;
    if (entry.weight > max) return;
    this.remove(key);
    while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.weight + entry.weight > max)) {
      this.remove(this.entries.keys().next().value as string);
    }
    this.entries.set(key, entry);
    this.weight += entry.weight;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  private changed(): void {
    this.notified++;
    this.entries.clear();
    this.weight = 0;
  }

  get isTrusted(): boolean {
    return this.trusted;
  }

  /** Entries held, and their weight. */
  get size(): { entries: number; weight: number } {
    return { entries: this.entries.size, weight: this.weight };
  }

  /** As a ChangeSubscriber of the LISTEN connection (PostgreSQL). */
  subscriber() {
    return {
      channel: this.channel,
      notify: () => this.changed(),
      setTrusted: (trusted: boolean) => {
        if (trusted !== this.trusted) this.changed();
        this.trusted = trusted;
      },
    };
  }
}
