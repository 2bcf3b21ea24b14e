import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { CacheStore, ReadCache } from '../../src/db/read-cache.js';
import { Generations } from '../../src/db/write-scope.js';

const MB = 1024 * 1024;
const ORG_A = '01890000-0000-7000-8000-00000000000a';
const ORG_B = '01890000-0000-7000-8000-00000000000b';

/** What the cache reads of a database: its write generations (src/db/client.ts moves them per statement). */
function setup(options: { trusted?: boolean; ttlMs?: number; maxBytes?: number } = {}) {
  const writes = new Generations();
  const db = { kind: 'pglite', writes } as unknown as Database;
  const store = new CacheStore(options.maxBytes ?? 64 * MB);
  const cache = new ReadCache<{ text: string }>({
    store,
    db,
    trusted: options.trusted ?? true,
    channels: ['things_changed'],
    weigh: (v) => v.text.length,
    ttlMs: options.ttlMs,
    variants: { maxEntries: 4, maxBytes: 64 * 1024 },
  });
  let loads = 0;
  const load = (text: string, during?: () => void) => async (): Promise<{ text: string }> => {
    loads++;
    await Promise.resolve();
    during?.();
    await new Promise((r) => setImmediate(r));
    return { text };
  };
  return { cache, store, writes, load, loads: () => loads };
}

describe('ReadCache (src/db/read-cache.ts)', () => {
  it('keeps a read and serves it again without a load while its scope wrote nothing', async () => {
    const { cache, writes, load, loads } = setup();
    expect(await cache.read('k', load('one'), { scope: ORG_A })).toEqual({ text: 'one' });
    expect(await cache.read('k', load('two'), { scope: ORG_A })).toEqual({ text: 'one' });
    expect(loads()).toBe(1);
    // Another organization's write leaves it current; its own makes it stale.
    writes.move(ORG_B);
    expect(await cache.read('k', load('two'), { scope: ORG_A })).toEqual({ text: 'one' });
    writes.move(ORG_A);
    expect(await cache.read('k', load('two'), { scope: ORG_A })).toEqual({ text: 'two' });
    // A write of no scope (an operator's, a migration) counts for every organization.
    writes.move(undefined);
    expect(await cache.read('k', load('three'), { scope: ORG_A })).toEqual({ text: 'three' });
    expect(loads()).toBe(3);
  });

  it('does not keep a read that overlapped a write of its scope (it may have seen either state); one of another scope does not matter', async () => {
    const { cache, writes, load, loads } = setup();
    expect(
      await cache.read(
        'k',
        load('during', () => writes.move(ORG_A)),
        { scope: ORG_A },
      ),
    ).toEqual({ text: 'during' });
    expect(await cache.read('k', load('after'), { scope: ORG_A })).toEqual({ text: 'after' });
    expect(loads()).toBe(2);
    // The scope learnt from the value is checked the same way.
    const scopeOf = () => ORG_B;
    await cache.read(
      'p',
      load('during', () => writes.move(ORG_B)),
      { scopeOf },
    );
    await cache.read('p', load('after'), { scopeOf });
    expect(loads()).toBe(4);
    await cache.read(
      'q',
      load('kept', () => writes.move(ORG_A)),
      { scopeOf },
    );
    expect(await cache.read('q', load('not read'), { scopeOf })).toEqual({ text: 'kept' });
    expect(loads()).toBe(5);
  });

  it('concurrent misses of one key share one load; a write of its scope meanwhile starts a new one', async () => {
    const { cache, writes, load, loads } = setup();
    const fifty = await Promise.all(Array.from({ length: 50 }, () => cache.read('k', load('shared'), { scope: ORG_A })));
    expect(loads()).toBe(1);
    expect(new Set(fifty).size).toBe(1);
    writes.move(ORG_A);
    const first = cache.read('k', load('before'), { scope: ORG_A });
    writes.move(ORG_A);
    const second = cache.read('k', load('after'), { scope: ORG_A });
    expect(await first).toEqual({ text: 'before' });
    expect(await second).toEqual({ text: 'after' });
    expect(loads()).toBe(3);
  });

  it('never keeps a failed read or an empty one', async () => {
    const { cache, load, loads } = setup();
    const failing = async () => {
      throw new Error('connection terminated');
    };
    await expect(cache.read('k', failing, { scope: ORG_A })).rejects.toThrow('connection terminated');
    await expect(cache.read('k', failing, { scope: ORG_A })).rejects.toThrow('connection terminated');
    expect(await cache.read('k', async () => undefined, { scope: ORG_A })).toBeUndefined();
    expect(await cache.read('k', load('ok'), { scope: ORG_A })).toEqual({ text: 'ok' });
    expect(loads()).toBe(1);
    expect(cache.size.entries).toBe(1);
  });

  it('losing the notification connection stops serving and regaining it clears what was kept', async () => {
    const { cache, load, loads } = setup();
    const [subscriber] = cache.subscribers();
    await cache.read('a', load('a'), { scope: ORG_A });
    await cache.read('b', load('b'), { scope: ORG_B });
    expect(cache.size.entries).toBe(2);
    subscriber!.setTrusted(false);
    expect(cache.size.entries).toBe(0);
    // Untrusted: every read loads and nothing is kept.
    await cache.read('a', load('a2'), { scope: ORG_A });
    await cache.read('a', load('a3'), { scope: ORG_A });
    expect(cache.size.entries).toBe(0);
    expect(loads()).toBe(4);
    subscriber!.setTrusted(true);
    expect(await cache.read('a', load('a4'), { scope: ORG_A })).toEqual({ text: 'a4' });
    expect(await cache.read('a', load('a5'), { scope: ORG_A })).toEqual({ text: 'a4' });
  });

  it('a read in flight while the connection was lost and regained is not kept', async () => {
    const { cache, load } = setup();
    const [subscriber] = cache.subscribers();
    const inFlight = cache.read(
      'a',
      load('seen before', () => {
        subscriber!.setTrusted(false);
        subscriber!.setTrusted(true);
      }),
      { scope: ORG_A },
    );
    await inFlight;
    expect(cache.size.entries).toBe(0);
  });

  it('a notification makes stale only the organization it names; one naming nobody (TRUNCATE) all of them', async () => {
    const { cache, load, loads } = setup();
    const [subscriber] = cache.subscribers();
    await cache.read('a', load('a'), { scope: ORG_A });
    await cache.read('b', load('b'), { scope: ORG_B });
    subscriber!.notify(ORG_A);
    expect(await cache.read('a', load('a2'), { scope: ORG_A })).toEqual({ text: 'a2' });
    expect(await cache.read('b', load('b2'), { scope: ORG_B })).toEqual({ text: 'b' });
    subscriber!.notify('*');
    expect(await cache.read('b', load('b3'), { scope: ORG_B })).toEqual({ text: 'b3' });
    expect(loads()).toBe(4);
  });

  it('uses an entry for at most its time-to-live', async () => {
    const { cache, load, loads } = setup({ ttlMs: 30 });
    await cache.read('k', load('one'), { scope: ORG_A });
    await cache.read('k', load('one'), { scope: ORG_A });
    expect(loads()).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(await cache.read('k', load('two'), { scope: ORG_A })).toEqual({ text: 'two' });
  });

  it('variants displace only variants of their partition; the process’s bytes stay under the store’s bound', async () => {
    const { cache, store, load } = setup({ maxBytes: 8 * MB });
    await cache.read('plain', load('x'.repeat(1000)), { scope: ORG_B });
    await cache.read('b-variant', load('b'), { scope: ORG_B, variants: 'estate-b' });
    for (let i = 0; i < 1000; i++) await cache.read(`a-${i}`, load('y'.repeat(10_000)), { scope: ORG_A, variants: 'estate-a' });
    // estate-a holds at most 4 variants (the partition's bound), the newest.
    expect(cache.get('a-999', { variants: 'estate-a' })).toBeDefined();
    expect(cache.get('a-0', { variants: 'estate-a' })).toBeUndefined();
    expect(cache.size.entries).toBe(2 + 4);
    expect(cache.get('plain')).toBeDefined();
    expect(cache.get('b-variant', { variants: 'estate-b' })).toBeDefined();
    expect(store.bytes).toBeLessThan(64 * 1024 + 4 * 1024);
    // Plain answers of many keys are bounded by the store: least recently used out first.
    for (let i = 0; i < 2000; i++) await cache.read(`big-${i}`, load('z'.repeat(100_000)), { scope: ORG_A });
    expect(store.bytes).toBeLessThanOrEqual(8 * MB);
    expect(cache.get('big-1999')).toBeDefined();
    expect(cache.get('big-0')).toBeUndefined();
  });
});
