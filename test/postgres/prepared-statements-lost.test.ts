import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, preparable } from '../../src/db/client.js';
import { createTestDatabaseUrl } from '../helpers/database.js';

// Hot statements run as named prepared statements on PostgreSQL (src/db/client.ts). A transaction-pooling
// PgBouncer before 1.21 cannot keep them: the next statement of a session may reach a server connection
// that never saw the statement. The service must then run it again unnamed and stop naming statements.
const SELECT = 'SELECT id, n FROM q WHERE id = $1';
const INSERT = 'INSERT INTO q (id, n) VALUES ($1, $2) RETURNING *';
preparable(SELECT);
preparable(INSERT);

describe('named prepared statements on a connection that loses them', () => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const created = await createTestDatabaseUrl();
    drop = created.drop;
    // One connection, so the test can take its prepared statements away.
    db = await openDatabase({ databaseUrl: created.url, poolSize: 1 });
    await db.exec('CREATE TABLE q (id int PRIMARY KEY, n int)');
    await db.query(INSERT, [1, 10]);
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('runs the statement again unnamed, says so once, and goes on unnamed', async () => {
    expect(await db.query(SELECT, [1])).toEqual([{ id: 1, n: 10 }]);
    // The pool's only connection forgets its prepared statements, as a session behind a
    // transaction-pooling PgBouncer appears to when a statement reaches another server connection.
    await db.query('DEALLOCATE ALL');
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      expect(await db.query(SELECT, [1])).toEqual([{ id: 1, n: 10 }]);
      expect(await db.query(INSERT, [2, 20])).toEqual([{ id: 2, n: 20 }]);
      await db.query('DEALLOCATE ALL');
      expect(await db.query(SELECT, [2])).toEqual([{ id: 2, n: 20 }]);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.includes('prepared statements'))).toHaveLength(1);
  });
});
