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
 * as `query` does after a statement outside a transaction.
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
