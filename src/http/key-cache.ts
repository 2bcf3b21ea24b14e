import { BoundedMap } from '../bounded-map.js';

/** What a presented API key resolves to. */
export interface KeyIdentity {
  organizationId: string;
  keyId: string;
  scopes: string[];
  /** ISO time after which the key answers 401; null or absent: never. */
  expiresAt?: string | null;
}

interface Entry extends KeyIdentity {
  cachedAt: number;
}

/** The channel a key revocation notifies on; the payload is the key's id. */
export const KEY_CHANNEL = 'api_key_revoked';
const MAX_ENTRIES = 10_000;
/** Even a trusted entry is looked up again after this long (a bound on any missed change). */
const MAX_AGE_MS = 5 * 60_000;

/**
 * Key hash -> identity for keys seen recently, so an authenticated request needs no database round
 * trip (issue 14). Only unknown or expired hashes reach the database; an unknown key costs the same
 * indexed lookup as before, whatever the cache holds.
 *
 * Trusted only while every revocation reaches it: on PGlite the DATA_DIR lock makes this process the
 * only writer; on PostgreSQL while the LISTEN connection is up (src/db/change-listener.ts), since a
 * revocation notifies `api_key_revoked` in its own statement. Untrusted, it holds nothing.
 * A lookup that started before a revocation is not stored (the generation check), so a revoked key
 * cannot be put back by a read that raced the notification.
 */
export class KeyCache {
  private readonly entries = new BoundedMap<string, Entry>(MAX_ENTRIES);
  private generation = 0;
  readonly stats = { hits: 0, misses: 0 };

  constructor(private trusted: boolean) {}

  get isTrusted(): boolean {
    return this.trusted;
  }

  get size(): number {
    return this.entries.size;
  }

  setTrusted(trusted: boolean): void {
    if (trusted !== this.trusted) this.clear();
    this.trusted = trusted;
  }

  lookup(hash: string): KeyIdentity | undefined {
    const entry = this.trusted ? this.entries.get(hash) : undefined;
    if (entry) {
      const now = Date.now();
      if (now - entry.cachedAt <= MAX_AGE_MS && (entry.expiresAt == null || Date.parse(entry.expiresAt) > now)) {
        this.stats.hits++;
        return entry;
      }
      this.entries.delete(hash);
    }
    this.stats.misses++;
    return undefined;
  }

  /** Taken before a database lookup and given back to `store`. */
  snapshot(): number {
    return this.generation;
  }

  store(hash: string, identity: KeyIdentity, snapshot: number): void {
    if (!this.trusted || snapshot !== this.generation) return;
    this.entries.set(hash, { ...identity, cachedAt: Date.now() });
  }

  /** A key was revoked (here, or on another instance: its notification). */
  revoked(keyId: string): void {
    this.generation++;
    for (const [hash, entry] of this.entries) if (entry.keyId === keyId) this.entries.delete(hash);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** As a ChangeSubscriber of the LISTEN connection. */
  subscriber() {
    return { channel: KEY_CHANNEL, notify: (keyId: string) => this.revoked(keyId), setTrusted: (t: boolean) => this.setTrusted(t) };
  }
}
