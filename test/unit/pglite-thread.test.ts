import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BoundWork, boundWork } from '../../src/db/bound-work.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { mapDatabaseError } from '../../src/db/errors.js';
import { CHRT_PATHS, DATABASE_THREAD_PRIORITY, type ThreadPriority } from '../../src/db/pglite-thread.js';

// PGlite in its worker thread (src/db/pglite-thread.ts), as the server runs it: the same answers,
// errors, transactions and savepoints as PGlite on the calling thread.
describe('PGlite in a worker thread', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openDatabase({ thread: true });
    await db.exec(`
      CREATE TABLE t (id int PRIMARY KEY, n bigint, at timestamptz DEFAULT now(), doc jsonb, CONSTRAINT t_n_uq UNIQUE (n));
    `);
  });
  afterAll(() => db?.close());

  it('answers rows with the same type conversions', async () => {
    const [row] = await db.query<{ id: number; n: number; at: string; doc: unknown }>(
      'INSERT INTO t (id, n, at, doc) VALUES ($1, $2, $3, $4::jsonb) RETURNING *',
      [1, 9_007_199_254_740, '2024-03-01T12:00:00.123Z', JSON.stringify({ a: [1, 'x'] })],
    );
    expect(row).toEqual({ id: 1, n: 9_007_199_254_740, at: '2024-03-01T12:00:00.123Z', doc: { a: [1, 'x'] } });
  });

  it('rejects with the PostgreSQL error fields the error mapping reads', async () => {
    const err = await db.query('INSERT INTO t (id, n) VALUES (2, 9007199254740)').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', constraint: 't_n_uq' });
    expect(mapDatabaseError(err)?.statusCode).toBe(409);
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id, n) VALUES (10, 10)');
      await tx.query('INSERT INTO t (id, n) VALUES (11, 11)');
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id, n) VALUES (12, 12)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const ids = (await db.query<{ id: number }>('SELECT id FROM t WHERE id >= 10 ORDER BY id')).map((r) => r.id);
    expect(ids).toEqual([10, 11]);
  });

  it('a statement outside a transaction waits for it, as on PGlite itself', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const tx = db.transaction(async (t) => {
      await t.query('INSERT INTO t (id, n) VALUES (20, 20)');
      order.push('tx inserted');
      await held;
      order.push('tx ends');
    });
    await new Promise((r) => setTimeout(r, 20));
    const outside = db.query<{ c: number }>('SELECT count(*)::int AS c FROM t WHERE id = 20').then((rows) => {
      order.push('outside read');
      return rows[0]!.c;
    });
    await new Promise((r) => setTimeout(r, 50));
    release();
    await tx;
    expect(await outside).toBe(1);
    expect(order).toEqual(['tx inserted', 'tx ends', 'outside read']);
  });

  it('bound work: savepoints inside one held transaction, rolled back as a whole', async () => {
    const work = new BoundWork(async (tx) => {
      await tx.query('INSERT INTO t (id, n) VALUES (30, 30)');
    });
    await boundWork.run(work, async () => {
      await db.transaction(async (tx) => tx.query('INSERT INTO t (id, n) VALUES (31, 31)'));
      await expect(db.transaction(async (tx) => tx.query('INSERT INTO t (id, n) VALUES (32, 31)'))).rejects.toMatchObject({ code: '23505' });
      await db.query('INSERT INTO t (id, n) VALUES (33, 33)');
    });
    await work.end();
    expect(await db.query('SELECT id FROM t WHERE id BETWEEN 30 AND 39')).toEqual([]);

    const kept = new BoundWork(async () => undefined);
    await boundWork.run(kept, () => db.query('INSERT INTO t (id, n) VALUES (34, 34)'));
    await kept.end(async (tx) => {
      await tx.query('INSERT INTO t (id, n) VALUES (35, 35)');
    });
    expect((await db.query<{ id: number }>('SELECT id FROM t WHERE id BETWEEN 30 AND 39 ORDER BY id')).map((r) => r.id)).toEqual([34, 35]);
  });

  it('closes once; a call after close is refused', async () => {
    const other = await openDatabase({ thread: true });
    expect(await other.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await other.close();
    await other.close();
    await expect(other.query('SELECT 1')).rejects.toThrow();
  });
});

describe('the PGlite thread', () => {
  /** Nice value and scheduling policy (0 SCHED_OTHER, 5 SCHED_IDLE) of one of this process's threads, from /proc. */
  const scheduling = (task: string) => {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return { nice: Number(fields[16]), policy: Number(fields[38]) };
  };
  /** How the threads opening a database adds to this process are scheduled, and this thread. */
  async function addedThreads(options: { threadPriority?: ThreadPriority }) {
    const before = new Set(readdirSync('/proc/self/task'));
    const own = scheduling(String(process.pid));
    const db = await openDatabase({ thread: true, ...options });
    try {
      const added = readdirSync('/proc/self/task').filter((t) => !before.has(t));
      return { own, ownAfter: scheduling(String(process.pid)), added: added.map(scheduling) };
    } finally {
      await db.close();
    }
  }
  const hasChrt = CHRT_PATHS.some((p) => existsSync(p));

  it.runIf(existsSync('/proc/thread-self'))('runs under SCHED_IDLE by default (nice 19 where chrt is missing); the opener keeps its priority', async () => {
    expect(DATABASE_THREAD_PRIORITY).toBe('idle');
    const { own, ownAfter, added } = await addedThreads({});
    expect(added).toContainEqual(hasChrt ? { nice: 19, policy: 5 } : { nice: 19, policy: 0 });
    expect(ownAfter).toEqual(own);
    expect(own.policy).toBe(0);
  });

  it.runIf(existsSync('/proc/thread-self'))("runs as many nice levels lower as it is told, capped at 19; 0 keeps the opener's priority", async () => {
    const three = await addedThreads({ threadPriority: 3 });
    expect(three.added).toContainEqual({ nice: Math.min(19, three.own.nice + 3), policy: 0 });
    expect(three.ownAfter).toEqual(three.own);
    const none = await addedThreads({ threadPriority: 0 });
    expect(none.added.length).toBeGreaterThan(0);
    expect(none.added.every((t) => t.nice === none.own.nice && t.policy === 0)).toBe(true);
  });
});

// Database.queryText on PGlite (src/db/pglite-prepared.ts): the first row's text columns as their
// UTF-8 bytes, read from the raw protocol; the same on PGlite's thread and on the calling thread.
describe.each([
  ['in a worker thread', true],
  ['on the calling thread', false],
])('queryText, PGlite %s', (_, thread) => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ thread });
  });
  afterAll(() => db?.close());

  it('answers the first row as the bytes of its text, null for NULL, undefined for no row', async () => {
    const text = `{"name" : "Żółć ${'é€😀'.repeat(200_000)}"}`;
    const row = await db.queryText('SELECT $1::text AS a, NULL::text AS b, $2::int::text AS c FROM generate_series(1, 2)', [text, 42]);
    expect(row).toHaveLength(3);
    expect(Buffer.isBuffer(row![0])).toBe(true);
    expect(row![0]!.toString('utf8')).toBe(text);
    expect(row![1]).toBeNull();
    expect(row![2]!.toString()).toBe('42');
    expect(await db.queryText('SELECT $1::text AS a WHERE false', ['x'])).toBeUndefined();
    expect(await db.queryText('SELECT $1::text[]::text AS a', [['a', 'b,c']])).toEqual([Buffer.from('{a,"b,c"}')]);
  });

  it('rejects with the PostgreSQL error fields, and the database answers afterwards', async () => {
    await expect(db.queryText('SELEC 1')).rejects.toMatchObject({ code: '42601' });
    const err = await db.queryText('SELECT (1 / $1::int)::text', [0]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '22012', message: 'division by zero' });
    expect(await db.queryText('SELECT $1::text', ['still here'])).toEqual([Buffer.from('still here')]);
    expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });
});
