import { LRUCache } from 'lru-cache';
import { isUuid } from '../ids.js';
import { boundWork } from './bound-work.js';
import type { Database } from './client.js';
import { Generations } from './write-scope.js';

/** Bytes counted for every kept entry besides its value's own weight: its key, stamps and the store's slots. */
const ENTRY_OVERHEAD = 256;
/** The process's kept answers at most, all caches together, unless CACHE_MAX_MB says otherwise. */
export const DEFAULT_CACHE_MAX_BYTES = 256 * 1024 * 1024;

/** When a kept read began: the write and notification clocks, and the time (performance.now()). */
export interface Stamp {
  writes: number;
  notes: number;
  at: number;
}

interface Kept<T> extends Stamp {
  value: T;
  /** Whose writes make it stale (an organization, an add-on, a key id); undefined: anyone's. */
  scope: string | undefined;
  weight: number;
}

/** A partition of variants (one estate's filtered pages, one organization's lists): its own LRU, one entry of the store. */
class Variants {
  constructor(
    readonly entries: LRUCache<string, Kept<unknown>>,
    readonly weight: number,
  ) {}
}

type Slot = Kept<unknown> | Variants;

/**
 * Every kept answer of the process (documents, lists, pages, public add-on documents, publishable answers,
 * API keys), in one lru-cache bounded in bytes: the least recently used entry goes first, whichever cache
 * it belongs to, and the bytes held never exceed `maxBytes` (CACHE_MAX_MB). A partition of variants
 * (below) is one entry whose weight is what it holds.
 */
export class CacheStore {
  readonly lru: LRUCache<string, Slot>;

  constructor(readonly maxBytes: number = DEFAULT_CACHE_MAX_BYTES) {
    this.lru = new LRUCache<string, Slot>({
      maxSize: maxBytes,
      // No single answer may take more than a quarter of the store (it would push out everyone else's).
      maxEntrySize: Math.floor(maxBytes / 4),
      sizeCalculation: (slot) => slot.weight + ENTRY_OVERHEAD,
    });
  }

  /** Bytes held (values as weighed, plus ENTRY_OVERHEAD each). */
  get bytes(): number {
    return this.lru.calculatedSize;
  }
}

export interface ReadCacheOptions<T> {
  store: CacheStore;
  /** Whose writes make entries stale (their scope's generation, src/db/write-scope.ts); without one, only notifications and `invalidate`. */
  db?: Database | undefined;
  /**
   * Whether entries may be used from the start: where every change reaches this process (PGlite, the only
   * writer). On PostgreSQL the LISTEN connection sets it (`subscriber`); while it is false nothing is used.
   */
  trusted: boolean;
  /** The NOTIFY channels whose notifications make entries stale (src/db/change-listener.ts). */
  channels?: string[];
  /** The scope a notification names; undefined: every scope. By default the payload when it is a UUID (an organization). */
  scopeOfPayload?: (payload: string) => string | undefined;
  /** What a value costs (bytes). */
  weigh?: (value: T) => number;
  /** The longest an entry is used (for changes no notification reports); unbounded when unset. */
  ttlMs?: number | undefined;
  /** Bounds of each partition of variants (`Placement.variants`). */
  variants?: { maxEntries: number; maxBytes: number };
  /** Keep entries while untrusted too, for `peek` (the add-on documents' version check). */
  keepUntrusted?: boolean;
}

/** Where a value goes and whose writes make it stale. */
export interface Placement<T> {
  /** The scope, when known before the read. */
  scope?: string | undefined;
  /** The scope, learnt from the value (a page knows its organization once it has read its estate). */
  scopeOf?: ((value: T) => string | undefined) | undefined;
  /**
   * The partition of variants the value belongs to (an estate's filtered pages, an organization's lists):
   * kept in that partition's own small LRU, so however many a visitor asks for, they displace only each
   * other, never another partition's or the plain answers.
   */
  variants?: string | undefined;
  /** With `variants`: a value kept among the plain answers instead (a list of the estate as it is). */
  plain?: ((value: T) => boolean) | undefined;
}

let names = 0;
const byDefault = (payload: string) => (isUuid(payload) ? payload.toLowerCase() : undefined);

/**
 * Answers read by key and reused (the same object: callers must not change it) while nothing they may
 * contain can have changed, in the process's CacheStore:
 * - Writes of this process (`db`): an entry is stamped with the write clock when its read began and
 *   is used while no write of its scope (its organization), and none outside any scope, happened since.
 *   Statements count by themselves (src/db/client.ts): no write path has to remember to invalidate. On
 *   PGlite this process is the only writer (DATA_DIR lock), so that is every change.
 * - PostgreSQL: triggers notify the channels with the organizations a statement changed (migrations
 *   0010, 0014, 0015, 0016), on any instance or by hand; the LISTEN connection moves this cache's
 *   notification generation of that scope. While that connection is down the cache is untrusted and
 *   every read asks the database; when it comes back everything kept before is dropped. `ttlMs` bounds
 *   what no notification reports.
 * A value read while its scope moved is not stored (it may have seen either state); a failed or empty
 * read is never stored. Concurrent reads of one key share one load while nothing of its scope moves.
 * Reads inside a request's bound transaction (src/db/bound-work.ts) are neither served nor kept: they
 * see that transaction's own uncommitted writes.
 */
export class ReadCache<T> {
  private readonly prefix = `${++names}\u0000`;
  private readonly notes = new Generations();
  private readonly loading = new Map<string, { stamp: Stamp; scope: string | undefined; promise: Promise<T | undefined> }>();
  private trusted: boolean;
  private readonly ttlMs: number;
  readonly stats = { hits: 0, misses: 0 };

  constructor(private readonly options: ReadCacheOptions<T>) {
    this.trusted = options.trusted;
    this.ttlMs = options.ttlMs ?? Number.POSITIVE_INFINITY;
  }

  get isTrusted(): boolean {
    return this.trusted;
  }

  /** The stamp of a read that begins now, for `set`. */
  stamp(): Stamp {
    return { writes: this.options.db?.writes.now() ?? 0, notes: this.notes.now(), at: performance.now() };
  }

  private movedSince(stamp: Stamp, scope: string | undefined): boolean {
    return (this.options.db?.writes.movedSince(stamp.writes, scope) ?? false) || this.notes.movedSince(stamp.notes, scope);
  }

  private usable(entry: Kept<unknown>): boolean {
    return !this.movedSince(entry, entry.scope) && performance.now() - entry.at < this.ttlMs;
  }

  private partitionKey(name: string): string {
    return `${this.prefix}\u0001${name}`;
  }

  /** The kept entry of `key`, current or not. */
  private find(key: string, place: Placement<T>): Kept<T> | undefined {
    const main = this.options.store.lru.get(this.prefix + key);
    if (main && !(main instanceof Variants)) return main as Kept<T>;
    if (place.variants === undefined) return undefined;
    const slot = this.options.store.lru.get(this.partitionKey(place.variants));
    return slot instanceof Variants ? (slot.entries.get(key) as Kept<T> | undefined) : undefined;
  }

  /** The kept value of `key` while it is current (and the cache trusted). */
  get(key: string, place: Placement<T> = {}): T | undefined {
    const entry = this.trusted ? this.find(key, place) : undefined;
    if (entry && this.usable(entry)) {
      this.stats.hits++;
      return entry.value;
    }
    this.stats.misses++;
    return undefined;
  }

  /** The kept value of `key` whether current or not (a caller that checks it against the database itself). */
  peek(key: string): T | undefined {
    return this.find(key, {})?.value;
  }

  /** Keeps `value`, read from a state no older than `stamp`, unless its scope moved since (or the cache is untrusted). */
  set(key: string, value: T, stamp: Stamp, place: Placement<T> = {}): void {
    if (!this.trusted && !this.options.keepUntrusted) return;
    const scope = place.scope ?? place.scopeOf?.(value);
    if (this.movedSince(stamp, scope)) return;
    const entry: Kept<T> = { ...stamp, value, scope, weight: Math.ceil(this.options.weigh?.(value) ?? 0) };
    const lru = this.options.store.lru;
    const bounds = this.options.variants;
    if (place.variants === undefined || !bounds || place.plain?.(value)) {
      lru.set(this.prefix + key, entry);
      return;
    }
    const name = this.partitionKey(place.variants);
    const slot = lru.get(name);
    const entries =
      slot instanceof Variants
        ? slot.entries
        : new LRUCache<string, Kept<unknown>>({ max: bounds.maxEntries, maxSize: bounds.maxBytes, sizeCalculation: (e) => e.weight + ENTRY_OVERHEAD });
    entries.set(key, entry);
    // A new slot object: lru-cache weighs a value again only when it is replaced.
    lru.set(name, new Variants(entries, entries.calculatedSize));
  }

  /**
   * The value of `key`: kept, or read by `load` (undefined: nothing, not kept). Concurrent reads of one key
   * share one load while nothing of its scope moves.
   */
  async read(key: string, load: () => Promise<T | undefined>, place: Placement<T> = {}): Promise<T | undefined> {
    if (!this.trusted || boundWork.getStore()) return load();
    const entry = this.find(key, place);
    if (entry && this.usable(entry)) {
      this.stats.hits++;
      return entry.value;
    }
    const pending = this.loading.get(key);
    if (pending && !this.movedSince(pending.stamp, pending.scope)) {
      this.stats.hits++;
      return pending.promise;
    }
    this.stats.misses++;
    const stamp = this.stamp();
    const promise = load();
    // The scope of a value not read yet: as given, or that of the entry it replaces.
    this.loading.set(key, { stamp, scope: place.scope ?? entry?.scope, promise });
    try {
      const value = await promise;
      if (value !== undefined) this.set(key, value, stamp, place);
      return value;
    } finally {
      if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
    }
  }

  /** Makes every entry of `scope` stale (undefined: every entry): a change this process made or was told of. */
  invalidate(scope: string | undefined): void {
    this.notes.move(scope);
  }

  /** Drops every entry of this cache. */
  clear(): void {
    this.notes.move(undefined);
    const lru = this.options.store.lru;
    for (const key of [...lru.keys()]) if (key.startsWith(this.prefix)) lru.delete(key);
  }

  setTrusted(trusted: boolean): void {
    // Anything kept while notifications may have been missed is suspect.
    if (trusted !== this.trusted) this.clear();
    this.trusted = trusted;
  }

  /** Entries held by this cache (variants counted one by one) and their bytes: for tests and metrics, it walks the store. */
  get size(): { entries: number; bytes: number } {
    let entries = 0;
    let bytes = 0;
    for (const [key, slot] of this.options.store.lru.entries()) {
      if (!key.startsWith(this.prefix)) continue;
      entries += slot instanceof Variants ? slot.entries.size : 1;
      bytes += slot.weight + ENTRY_OVERHEAD;
    }
    return { entries, bytes };
  }

  /** One ChangeSubscriber of the LISTEN connection (src/db/change-listener.ts) per channel. */
  subscribers() {
    const scopeOf = this.options.scopeOfPayload ?? byDefault;
    return (this.options.channels ?? []).map((channel) => ({
      channel,
      notify: (payload: string) => this.invalidate(scopeOf(payload)),
      setTrusted: (trusted: boolean) => this.setTrusted(trusted),
    }));
  }
}

/** What the caches of one app share: the store, and (PostgreSQL) the longest an answer no notification covers is used (CACHE_TTL_MS). */
export interface Caching {
  store: CacheStore;
  ttlMs: number;
}

/** The options every cache following `db`'s writes starts from: trusted on PGlite (the only writer), CACHE_TTL_MS on PostgreSQL where asked. */
export function followingWrites(db: Database, caching: Caching, ttl: boolean): Pick<ReadCacheOptions<unknown>, 'store' | 'db' | 'trusted' | 'ttlMs'> {
  return { store: caching.store, db, trusted: db.kind === 'pglite', ttlMs: ttl && db.kind === 'postgres' ? caching.ttlMs : undefined };
}
