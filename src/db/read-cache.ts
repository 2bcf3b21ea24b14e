import { BoundedMap } from '../bounded-map.js';
import type { Database } from './client.js';

const MAX_ENTRIES = 10_000;

/**
 * Documents read by key, reused (the same object: callers must not change it) while nothing they may
 * contain can have changed:
 * - PGlite: this process is the only writer (DATA_DIR lock). The database's write generation moves with
 *   every statement that may write and every transaction's end (Database.writeGeneration); an entry is
 *   valid while it has not moved. No write path has to remember to invalidate.
 * - PostgreSQL: this instance's own writes move the same generation at once (read-your-writes), and
 *   triggers notify `channel` after every statement that changes the tables the documents are read from
 *   (migrations/0010), on any instance or by hand; the LISTEN connection (src/db/change-listener.ts)
 *   moves this cache's generation too. While that connection is down the cache is untrusted and every
 *   read asks the database.
 * A document read while the generation moved is not stored (it may have seen either state).
 */
export class ReadCache<T> {
  private readonly entries = new BoundedMap<string, { generation: number; value: T }>(MAX_ENTRIES);
  private notified = 0;
  private trusted: boolean;
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    private readonly db: Database,
    private readonly channel: string,
  ) {
    this.trusted = db.kind === 'pglite';
  }

  private generation(): number | undefined {
    // Both only grow: their sum moves whenever either does.
    return this.trusted ? this.db.writeGeneration() + this.notified : undefined;
  }

  async read(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const generation = this.generation();
    if (generation === undefined) return load();
    const entry = this.entries.get(key);
    if (entry && entry.generation === generation) {
      this.stats.hits++;
      return entry.value;
    }
    this.stats.misses++;
    const value = await load();
    if (value !== undefined && this.generation() === generation) {
      this.entries.set(key, { generation, value });
    }
    return value;
  }

  private changed(): void {
    this.notified++;
    this.entries.clear();
  }

  get isTrusted(): boolean {
    return this.trusted;
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
