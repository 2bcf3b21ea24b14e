import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { PGLITE_PARSERS } from './client.js';
import { type TextQueryOptions, queryPrepared, queryText } from './pglite-prepared.js';
import { type ThreadPriority, lowerThreadPriority } from './pglite-thread.js';

/**
 * The worker side of src/db/pglite-thread.ts: owns the PGlite instance and answers one message per
 * call. A transaction stays open between messages: `begin` enters PGlite's transaction callback and
 * keeps it waiting until `end` says commit or roll back.
 */
const port = parentPort!;
const { priority } = workerData as { dataDir: string; priority?: ThreadPriority };
if (priority) lowerThreadPriority(priority);
const ROLLBACK = Symbol('rollback');
const db = await PGlite.create((workerData as { dataDir: string }).dataDir, { parsers: PGLITE_PARSERS });
const open = new Map<number, { tx: Transaction; decide(commit: boolean): void; outcome: Promise<unknown> }>();

type Message =
  | { id: number; op: 'ready' | 'close' }
  | { id: number; op: 'query'; sql: string; params: unknown[]; tx?: number }
  | { id: number; op: 'prepared'; name: string; sql: string; params: unknown[] }
  | { id: number; op: 'text'; sql: string; params: unknown[]; options?: TextQueryOptions }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'begin'; tx: number }
  | { id: number; op: 'end'; tx: number; commit: boolean };

/** An error as plain data: postMessage keeps only the message of an Error, not PostgreSQL's code or constraint. */
function wire(err: unknown) {
  if (err instanceof Error) return { ...Object.fromEntries(Object.entries(err).filter(([, v]) => typeof v !== 'object' || v === null)), message: err.message };
  return { message: String(err) };
}

function transactionOf(id: number | undefined) {
  if (id === undefined) return db;
  const t = open.get(id);
  if (!t) throw new Error('The transaction has ended');
  return t.tx;
}

async function handle(m: Message): Promise<unknown> {
  switch (m.op) {
    case 'ready':
      return null;
    case 'query': {
      const result = await transactionOf(m.tx).query(m.sql, m.params);
      return { rows: result.rows };
    }
    case 'prepared':
      return { rows: (await queryPrepared(db, m.name, m.sql, m.params)).rows };
    case 'text':
      return queryText(db, m.sql, m.params, m.options);
    case 'exec':
      await db.exec(m.sql);
      return null;
    case 'begin':
      return new Promise<null>((began, failed) => {
        let decide!: (commit: boolean) => void;
        const decided = new Promise<boolean>((r) => {
          decide = r;
        });
        const entry = { tx: undefined as unknown as Transaction, decide, outcome: Promise.resolve() as Promise<unknown> };
        entry.outcome = db.transaction(async (tx) => {
          entry.tx = tx;
          open.set(m.tx, entry);
          began(null);
          if (!(await decided)) throw ROLLBACK;
        });
        entry.outcome.catch((err) => {
          if (!open.has(m.tx)) failed(err);
        });
      });
    case 'end': {
      const t = open.get(m.tx);
      if (!t) throw new Error('The transaction has ended');
      open.delete(m.tx);
      t.decide(m.commit);
      try {
        await t.outcome;
      } catch (err) {
        if (err !== ROLLBACK) throw err;
      }
      return null;
    }
    case 'close':
      if (!db.closed) await db.close();
      return null;
  }
}

/** The buffers under a `text` answer's columns (one, shared by all), moved to the other thread rather than copied. */
function transferable(value: unknown): ArrayBuffer[] {
  if (!Array.isArray(value)) return [];
  const buffers = new Set<ArrayBuffer>();
  for (const column of value) if (column instanceof Uint8Array) buffers.add(column.buffer as ArrayBuffer);
  return [...buffers];
}

port.on('message', (m: Message) => {
  handle(m).then(
    (value) => port.postMessage({ id: m.id, ok: true, value }, m.op === 'text' ? transferable(value) : []),
    (err) => port.postMessage({ id: m.id, ok: false, error: wire(err) }),
  );
});
