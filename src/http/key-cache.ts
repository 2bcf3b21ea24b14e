import { type CacheStore, ReadCache, type Stamp } from '../db/read-cache.js';

/** What a presented API key resolves to. */
export interface KeyIdentity {
  organizationId: string;
  keyId: string;
  scopes: string[];
  /** ISO time after which the key answers 401; null or absent: never. */
  expiresAt?: string | null;
}

/** The channel a key revocation notifies on; the payload is the key's id. */
export const KEY_CHANNEL = 'api_key_revoked';
/** Even a trusted entry is looked up again after this long (a bound on any missed change). */
const MAX_AGE_MS = 5 * 60_000;
/** An identity as the store weighs it (the hash key, ids and scopes). */
const IDENTITY_BYTES = 256;

/**
 * Key hash -> identity for keys seen recently, so an authenticated request needs no database round
 * trip (issue 14). Only unknown or expired hashes reach the database; an unknown key costs the same
 * indexed lookup as before, whatever the cache holds. Kept in the process's one cache
 * (src/db/read-cache.ts) with the key's id as its scope; it does not follow the database's writes (a
 * partner's every write would cost its next request a lookup), only revocations.
 *
 * Trusted only while every revocation reaches it: on PGlite the DATA_DIR lock makes this process the
 * only writer; on PostgreSQL while the LISTEN connection is up (src/db/change-listener.ts), since a
 * revocation notifies `api_key_revoked` in its own statement. Untrusted, it holds nothing.
 * A lookup that started before a revocation is not stored (its stamp), so a revoked key cannot be put
 * back by a read that raced the notification.
 */
export class KeyCache {
  private readonly cache: ReadCache<KeyIdentity>;

  constructor(store: CacheStore, trusted: boolean) {
    this.cache = new ReadCache<KeyIdentity>({ store, trusted, channels: [KEY_CHANNEL], weigh: () => IDENTITY_BYTES, ttlMs: MAX_AGE_MS });
  }

  get isTrusted(): boolean {
    return this.cache.isTrusted;
  }

  get stats(): { hits: number; misses: number } {
    return this.cache.stats;
  }

  get size(): number {
    return this.cache.size.entries;
  }

  setTrusted(trusted: boolean): void {
    this.cache.setTrusted(trusted);
  }

  lookup(hash: string): KeyIdentity | undefined {
    const entry = this.cache.get(hash);
    if (entry && entry.expiresAt != null && Date.parse(entry.expiresAt) <= Date.now()) {
      this.cache.invalidate(entry.keyId);
      return undefined;
    }
    return entry;
  }

  /** Taken before a database lookup and given back to `store`. */
  snapshot(): Stamp {
    return this.cache.stamp();
  }

  store(hash: string, identity: KeyIdentity, snapshot: Stamp): void {
    this.cache.set(hash, identity, snapshot, { scope: identity.keyId.toLowerCase() });
  }

  /** A key was revoked (here, or on another instance: its notification). */
  revoked(keyId: string): void {
    this.cache.invalidate(keyId.toLowerCase());
  }

  clear(): void {
    this.cache.clear();
  }

  /** As a ChangeSubscriber of the LISTEN connection. */
  subscriber() {
    return this.cache.subscribers()[0]!;
  }
}
