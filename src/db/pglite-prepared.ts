import { type PGlite, type Results, parse, protocol } from '@electric-sql/pglite';

/**
 * Named prepared statements on PGlite, which its `query` does not offer: every `query` parses, plans
 * and describes its statement again, in five calls into WebAssembly. Here a statement is parsed and
 * described once per database (by name: the name follows from the text, see `preparable` in
 * src/db/client.ts) and then each call is one Bind/Execute/Sync round.
 *
 * Built on PGlite's public protocol API (protocol.serialize, execProtocolStream, parseResults) with
 * its own locks: a call waits for any open transaction and any running statement, exactly as `query`
 * does, and runs only outside transactions (the caller's rule), so the filesystem is synced after it
 * as `query` does after a statement outside a transaction. queryText, below, reads a row as bytes.
 */

interface Internals {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _checkReady(): Promise<void>;
  syncToFs(): Promise<void>;
  serializers: Record<number, (x: unknown) => string>;
  parsers: Record<number, (x: string, typeId?: number) => unknown>;
}

const described = new WeakMap<PGlite, Map<string, number[]>>();

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

export async function queryPrepared<T>(pg: PGlite, name: string, sql: string, params: readonly unknown[]): Promise<Results<T>> {
  const db = pg as unknown as Internals;
  let statements = described.get(pg);
  if (!statements) {
    statements = new Map();
    described.set(pg, statements);
  }
  const known = statements;
  await db._checkReady();
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      let types = known.get(name);
      if (!types) {
        const { serialize } = protocol;
        const messages = await pg.execProtocolStream(
          concat([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]),
          {
            syncToFs: false,
          },
        );
        types = parse.parseDescribeStatementResults(messages);
        known.set(name, types);
      }
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = db.serializers[types[i]!];
        return serializer ? serializer(value) : String(value);
      });
      const { serialize } = protocol;
      const messages = await pg.execProtocolStream(
        concat([serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
        { syncToFs: false },
      );
      await db.syncToFs();
      return parse.parseResults(messages, db.parsers)[0] as Results<T>;
    }),
  );
}

/** Where each column of a DataRow message starting at `at` lies in `bytes` (null for NULL). */
function dataRowColumns(bytes: Uint8Array, view: DataView, at: number): Array<Uint8Array | null> {
  const count = view.getInt16(at + 5);
  const columns: Array<Uint8Array | null> = [];
  let offset = at + 7;
  for (let i = 0; i < count; i++) {
    const length = view.getInt32(offset);
    offset += 4;
    if (length < 0) columns.push(null);
    else {
      columns.push(bytes.subarray(offset, offset + length));
      offset += length;
    }
  }
  return columns;
}

/**
 * The first row of a read-only statement, each column as the UTF-8 bytes of its text (null for NULL),
 * never decoded: views into one fresh buffer, which the worker thread transfers rather than copies.
 * PGlite's `query` decodes every value into a string, and a string crossing to another thread is
 * copied; for a list answer of 15 MB of JSON that was about a tenth of the statement's time (issue 14).
 * Same locks and rules as queryPrepared; a database error is thrown as `query` throws it.
 */
export async function queryText(
  pg: PGlite,
  sql: string,
  params: readonly unknown[],
  options?: TextQueryOptions,
): Promise<Array<Uint8Array | null> | undefined> {
  const db = pg as unknown as Internals;
  await db._checkReady();
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      if (!options?.preferIndexes) return textRow(pg, db, sql, params);
      // Nothing else runs between the SET and the RESET: this holds PGlite's query lock.
      await pg.execProtocolStream(protocol.serialize.query('SET enable_seqscan = off'), { syncToFs: false });
      try {
        return await textRow(pg, db, sql, params);
      } finally {
        await pg.execProtocolStream(protocol.serialize.query('RESET enable_seqscan'), { syncToFs: false });
      }
    }),
  );
}

/** How a text query is planned. */
export interface TextQueryOptions {
  /**
   * Plans with sequential scans off (`enable_seqscan`), so a table that has an index for the condition
   * is read through it whatever the statistics say (stale ones made a list's count scan every apartment).
   */
  preferIndexes?: boolean;
}

async function textRow(pg: PGlite, db: Internals, sql: string, params: readonly unknown[]): Promise<Array<Uint8Array | null> | undefined> {
  const { serialize } = protocol;
  const chunks: Uint8Array[] = [];
  let types: number[];
  try {
    types = parse.parseDescribeStatementResults(
      await pg.execProtocolStream(concat([serialize.parse({ text: sql }), serialize.describe({ type: 'S' })]), { syncToFs: false }),
    );
  } catch (err) {
    await pg.execProtocolStream(serialize.sync(), { syncToFs: false });
    throw err;
  }
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = db.serializers[types[i]!];
    return serializer ? serializer(value) : String(value);
  });
  // The raw stream hands over views into WebAssembly memory, valid only during the callback.
  await pg.execProtocolRawStream(concat([serialize.bind({ values }), serialize.execute({}), serialize.sync()]), {
    syncToFs: false,
    onRawData: (bytes) => {
      chunks.push(bytes.slice());
    },
  });
  await db.syncToFs();
  const bytes = chunks.length === 1 ? chunks[0]! : concat(chunks);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let row: Array<Uint8Array | null> | undefined;
  for (let at = 0; at + 5 <= bytes.length; at += 1 + view.getInt32(at + 1)) {
    const type = String.fromCharCode(bytes[at]!);
    if (type === 'E') throw databaseError(bytes.subarray(at, at + 1 + view.getInt32(at + 1)));
    if (type === 'D' && row === undefined) row = dataRowColumns(bytes, view, at);
  }
  return row;
}

/** An ErrorResponse message as the DatabaseError PGlite's `query` throws. */
function databaseError(message: Uint8Array): Error {
  let error: Error | undefined;
  new protocol.Parser().parse(message, (parsed) => {
    error ??= parsed as unknown as Error;
  });
  return error ?? new Error('The database answered with an error it did not describe');
}
