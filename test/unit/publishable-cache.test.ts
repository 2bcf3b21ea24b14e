import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { CompressibleBody } from '../../src/http/compression.js';
import { PublishableCache } from '../../src/http/publishable.js';

/** Only what the cache reads of a database: its kind and its write generation. */
const engine = (kind: 'pglite' | 'postgres') => {
  let generation = 0;
  const db = { kind, writeGeneration: () => generation } as unknown as Database;
  return { db, write: () => generation++ };
};

/** An answer of `bytes` bytes: it weighs twice that (room for its compressed forms). */
const answer = (bytes: number, generation = 0) => ({ body: new CompressibleBody(Buffer.from('x'.repeat(bytes))), etag: '"e"', generation, at: Date.now() });

describe('PublishableCache', () => {
  it('keeps at most 32 MB of answers (64 MB with their encodings) however many distinct URLs are asked, dropping the oldest', () => {
    const { db } = engine('pglite');
    const cache = new PublishableCache(db);
    const MB = 1024 * 1024;
    for (let i = 0; i < 100; i++) cache.store(`org /api/v1/apartment?q=${i}`, answer(MB - 1));
    expect(cache.size).toBeLessThanOrEqual(64 * MB);
    expect(cache.size).toBeGreaterThan(60 * MB);
    expect(cache.get('org /api/v1/apartment?q=99')).toBeDefined();
    expect(cache.get('org /api/v1/apartment?q=0')).toBeUndefined();
  });

  it('does not keep an answer over 1 MB, nor one built before a write', () => {
    const { db, write } = engine('pglite');
    const cache = new PublishableCache(db);
    cache.store('big', answer(1024 * 1024 + 1));
    expect(cache.get('big')).toBeUndefined();
    write();
    cache.store('stale', answer(10, 0));
    expect(cache.get('stale')).toBeUndefined();
    cache.store('fresh', answer(10, 1));
    expect(cache.get('fresh')?.body.identity.toString()).toBe('x'.repeat(10));
    write();
    expect(cache.get('fresh')).toBeUndefined();
  });

  it('replacing an answer under the same URL does not count it twice', () => {
    const { db } = engine('postgres');
    const cache = new PublishableCache(db);
    cache.store('k', answer(100));
    cache.store('k', answer(50));
    expect(cache.size).toBe(100);
  });
});
