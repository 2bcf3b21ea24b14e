import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { CacheStore } from '../../src/db/read-cache.js';
import { Generations, inWriteScope } from '../../src/db/write-scope.js';
import { CompressibleBody } from '../../src/http/compression.js';
import { PUBLISHABLE_VARIANTS, PublishableCache } from '../../src/http/publishable.js';

const MB = 1024 * 1024;

/** Only what the cache reads of a database: its kind and its write generations. */
const engine = (kind: 'pglite' | 'postgres') => {
  const writes = new Generations();
  const db = { kind, writes } as unknown as Database;
  return { db, write: (organizationId?: string) => writes.move(organizationId) };
};

/** An answer of `bytes` bytes: it weighs twice that (room for its compressed forms). */
const answer = (bytes: number) => ({ body: new CompressibleBody(Buffer.from('x'.repeat(bytes))), etag: '"e"' });

describe('PublishableCache', () => {
  it('keeps at most PUBLISHABLE_VARIANTS bytes of one organization’s answers however many distinct URLs are asked, dropping the oldest; another organization’s stay', () => {
    const { db } = engine('pglite');
    const store = new CacheStore(256 * MB);
    const cache = new PublishableCache(db, { store, ttlMs: 1000 });
    cache.store('b', '/api/v1/estate', answer(1000), cache.stamp());
    for (let i = 0; i < 100; i++) cache.store('a', `/api/v1/apartment?q=${i}`, answer(MB - 1), cache.stamp());
    expect(cache.size).toBeLessThanOrEqual(PUBLISHABLE_VARIANTS.maxBytes + 4096);
    expect(store.bytes).toBeLessThanOrEqual(PUBLISHABLE_VARIANTS.maxBytes + 8192);
    expect(cache.get('a', '/api/v1/apartment?q=99')).toBeDefined();
    expect(cache.get('a', '/api/v1/apartment?q=0')).toBeUndefined();
    expect(cache.get('b', '/api/v1/estate')).toBeDefined();
  });

  it('does not keep an answer over 1 MB, nor one built before a write of its organization; another organization’s write changes nothing', () => {
    const { db, write } = engine('pglite');
    const cache = new PublishableCache(db, { store: new CacheStore(64 * MB), ttlMs: 1000 });
    cache.store('a', 'big', answer(MB + 1), cache.stamp());
    expect(cache.get('a', 'big')).toBeUndefined();
    const before = cache.stamp();
    write('a');
    cache.store('a', 'stale', answer(10), before);
    expect(cache.get('a', 'stale')).toBeUndefined();
    cache.store('a', 'fresh', answer(10), cache.stamp());
    expect(cache.get('a', 'fresh')?.body.identity.toString()).toBe('x'.repeat(10));
    write('b');
    expect(cache.get('a', 'fresh')).toBeDefined();
    write('a');
    expect(cache.get('a', 'fresh')).toBeUndefined();
    cache.store('a', 'fresh', answer(10), cache.stamp());
    // A write outside any organization's scope (an operator's) counts for every organization.
    inWriteScope(undefined, () => write(undefined));
    expect(cache.get('a', 'fresh')).toBeUndefined();
  });

  it('replacing an answer under the same URL does not count it twice', () => {
    const { db } = engine('postgres');
    const cache = new PublishableCache(db, { store: new CacheStore(64 * MB), ttlMs: 1000 });
    cache.store('a', 'k', answer(100), cache.stamp());
    const once = cache.size;
    cache.store('a', 'k', answer(50), cache.stamp());
    expect(cache.size).toBe(once - 100);
  });
});
