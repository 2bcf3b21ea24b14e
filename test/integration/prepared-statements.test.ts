import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, preparable } from '../../src/db/client.js';
import { mapDatabaseError } from '../../src/db/errors.js';
import { TEST_DATABASE, createTestDatabaseUrl } from '../helpers/database.js';

// Hot statements (those prepared() compiles, src/db/query.ts) run as named prepared statements on both
// engines (src/db/client.ts; src/db/pglite-prepared.ts on PGlite). They must answer exactly what the
// same statement answers unnamed, fail with the same error fields and keep transaction isolation
// (test/postgres/prepared-statements-lost.test.ts: a pooler that loses them).

const INSERT = 'INSERT INTO p (id, n, tags, doc, at) VALUES ($1, $2, CAST($3 AS text[]), CAST($4 AS jsonb), $5) RETURNING *';
const SELECT = 'SELECT * FROM p WHERE id = $1';
preparable(INSERT);
preparable(SELECT);

interface Row {
  id: number;
  n: number | null;
  tags: string[];
  doc: unknown;
  at: string;
}

const engines = TEST_DATABASE === 'postgres' ? (['postgres'] as const) : (['pglite', 'pglite thread'] as const);

describe.each(engines)('named prepared statements (%s)', (engine) => {
  let db: Database;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (engine === 'postgres') {
      const created = await createTestDatabaseUrl();
      drop = created.drop;
      // One connection, so the test can take its prepared statements away (below).
      db = await openDatabase({ databaseUrl: created.url, poolSize: 1 });
    } else {
      db = await openDatabase({ thread: engine === 'pglite thread' });
    }
    await db.exec(
      'CREATE TABLE p (id int PRIMARY KEY, n bigint, tags text[] NOT NULL DEFAULT $$ {} $$, doc jsonb, at timestamptz NOT NULL DEFAULT now(), CONSTRAINT p_n_uq UNIQUE (n))',
    );
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('answers as the unnamed statement does: parameters of every kind, nulls, conversions', async () => {
    const values = [1, 9_007_199_254_740, ['a', 'b,c', 'd"e'], JSON.stringify({ k: [1, 'x'], n: null }), '2024-03-01T12:00:00.123Z'];
    const [prepared] = await db.query<Row>(INSERT, values);
    expect(prepared).toEqual({ id: 1, n: 9_007_199_254_740, tags: ['a', 'b,c', 'd"e'], doc: { k: [1, 'x'], n: null }, at: '2024-03-01T12:00:00.123Z' });
    // The same text with a trailing space is not preparable: the unnamed path answers the same.
    const [unnamed] = await db.query<Row>(`${SELECT} `, [1]);
    expect(unnamed).toEqual(prepared);
    for (let i = 0; i < 3; i++) expect(await db.query<Row>(SELECT, [1])).toEqual([prepared]);
    const [nulls] = await db.query<Row>(INSERT, [2, null, [], null, '2024-03-01T12:00:00.000Z']);
    expect(nulls).toMatchObject({ id: 2, n: null, tags: [], doc: null });
    expect(await db.query<Row>(SELECT, [99])).toEqual([]);
  });

  it('fails with the PostgreSQL error fields, and keeps working after a failure', async () => {
    const err = await db.query(INSERT, [3, 9_007_199_254_740, [], null, '2024-03-01T12:00:00.000Z']).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '23505', constraint: 'p_n_uq' });
    expect(mapDatabaseError(err)?.statusCode).toBe(409);
    const [row] = await db.query<Row>(INSERT, [3, 3, [], null, '2024-03-01T12:00:00.000Z']);
    expect(row?.id).toBe(3);
  });

  it('waits for an open transaction and never sees its uncommitted rows', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inserted!: () => void;
    const didInsert = new Promise<void>((r) => {
      inserted = r;
    });
    const tx = db.transaction(async (t) => {
      await t.query('INSERT INTO p (id, n) VALUES (40, 40)');
      inserted();
      await held;
    });
    await didInsert;
    // PGlite runs one transaction at a time, so the read waits for it (as `query` does); PostgreSQL
    // here has one pooled connection, held by the transaction. Neither may answer the uncommitted row.
    const read = db.query<Row>(SELECT, [40]);
    const early = await Promise.race([read.then((rows) => rows.length), new Promise((r) => setTimeout(() => r('waiting'), 200))]);
    expect(early).toBe('waiting');
    release();
    await tx;
    expect((await read).length).toBe(1);
    expect(await db.query<Row>(SELECT, [40])).toHaveLength(1);
  });
});
