import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type HeldTransaction, boundWork } from './bound-work.js';
import { type TextQueryOptions, queryPrepared, queryText } from './pglite-prepared.js';

export type { TextQueryOptions };
import { DATABASE_THREAD_PRIORITY, PgliteThread, type ThreadPriority } from './pglite-thread.js';
import { Generations, type WriteClock, writeScope } from './write-scope.js';

/** Anything that runs SQL: the database itself or one open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs fn in one transaction; commits when it resolves, rolls back when it throws. Inside the bound
   * work of a request (see bound-work.ts) it is a savepoint of the request's transaction instead, and
   * `query` runs in that transaction too.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Opens a transaction its caller ends with commit() or rollback(); never joins bound work. */
  begin(): Promise<HeldTransaction>;
  /**
   * The first row (undefined if none) of a read-only statement whose columns are text, each column as
   * its UTF-8 bytes (null for NULL): for an answer the database writes and the server sends as it is (a
   * list's JSON). On PGlite the text is never decoded into a string (nor copied between threads); pg
   * decodes every value, so on PostgreSQL it is encoded again. In a request's bound work it runs there
   * (and `options` are not applied).
   */
  queryText(sql: string, params?: readonly unknown[], options?: TextQueryOptions): Promise<Array<Buffer | null> | undefined>;
  /** Runs a script of several statements (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /**
   * The write generations of this process, per organization (src/db/write-scope.ts): a statement that may
   * write something a cache reads (see NEUTRAL) moves its organization's generation when it is sent and
   * again when it ends, and a transaction's end moves the generations its statements moved. The
   * organization is the write scope the statement runs in; a statement outside any scope moves them all.
   * On PGlite this process is the only writer (DATA_DIR lock), so a document read while its
   * organization's generation stayed the same is still current; on PostgreSQL other instances write too
   * and src/db/read-cache.ts adds their notifications.
   */
  readonly writes: WriteClock;
}

/** Told of every statement's latency (metrics); set with observeQueries. */
export type QueryObserver = (sql: string, seconds: number, failed: boolean) => void;

async function timed<T>(observer: QueryObserver | undefined, sql: string, run: () => Promise<T>): Promise<T> {
  if (!observer) return run();
  const started = performance.now();
  try {
    const result = await run();
    observer(sql, (performance.now() - started) / 1000, false);
    return result;
  } catch (err) {
    observer(sql, (performance.now() - started) / 1000, true);
    throw err;
  }
}

// int8 (20) and numeric (1700) come back as JS numbers on both drivers; every such column holds
// values well inside Number.MAX_SAFE_INTEGER (sizes, cents, counts). timestamptz (1184) comes back as
// the ISO 8601 string the API shows (UTC, milliseconds), so a row's times need no mapping.
const INT8 = 20;
const NUMERIC = 1700;
const TIMESTAMPTZ = 1184;
const parsePgTimestamp = pg.types.getTypeParser(TIMESTAMPTZ) as (v: string) => Date;
const isoTimestamp = (v: string) => parsePgTimestamp(v).toISOString();
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(NUMERIC, (v) => Number(v));
pg.types.setTypeParser(TIMESTAMPTZ, isoTimestamp);

/** The same conversions on PGlite, in-process or in its worker thread (src/db/pglite-worker.ts). */
export const PGLITE_PARSERS = { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v), [TIMESTAMPTZ]: isoTimestamp };

/**
 * Statements worth keeping parsed and planned by the database: the hot ones `prepared()` compiles once
 * (src/db/query.ts), by SQL text, each with a name derived from its text.
 */
const PREPARABLE = new Map<string, string>();

/** Marks a statement text as one to run as a named prepared statement on PostgreSQL (see PostgresDatabase.query). */
export function preparable(sql: string): void {
  if (!PREPARABLE.has(sql)) PREPARABLE.set(sql, `pps_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`);
}

/** `prepared statement does not exist` and `… already exists`: a pooler moved the session under us. */
const PREPARED_STATEMENT_LOST = new Set(['26000', '42P05']);

/** What PgliteDatabase needs of PGlite: PGlite itself, or PgliteThread (the same calls, answered by a worker). */
interface PgliteLike {
  readonly closed: boolean;
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** A named prepared statement, outside transactions (src/db/pglite-prepared.ts). */
  queryPrepared<T>(name: string, sql: string, params: unknown[]): Promise<{ rows: T[] }>;
  /** The first row's columns as UTF-8 bytes, outside transactions (src/db/pglite-prepared.ts). */
  queryText(sql: string, params: unknown[], options?: TextQueryOptions): Promise<Array<Uint8Array | null> | undefined>;
  transaction<T>(fn: (tx: { query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }> }) => Promise<T>): Promise<T>;
  exec(sql: string): Promise<unknown>;
  close(): Promise<void>;
}

/** pg's type parsers for a statement whose columns are wanted as the text PostgreSQL sent. */
const AS_TEXT = { getTypeParser: () => (text: string) => text };

/** A first row read by `query` (text columns are strings on both drivers) as queryText answers it. */
const encodedRow = (rows: Array<Record<string, unknown>>) => {
  const row = rows[0];
  return row && Object.values(row).map((column) => (column === null ? null : Buffer.from(String(column))));
};

/** Thrown inside PGlite's transaction callback to end it with ROLLBACK. */
const ROLLBACK = Symbol('rollback');

/**
 * Marks a hand-written statement that writes only tables no cache reads (the webhook worker's idle claim,
 * every 2 s; the outbox rows of an event): it does not move the write generation, which would otherwise
 * drop kept documents and lists with every claim and every inquiry.
 */
export const CACHE_NEUTRAL = '/* cache-neutral */';

/**
 * Statements that leave every kept answer current: reads, transaction control (a transaction's end is
 * counted by the transaction), the CACHE_NEUTRAL ones, and the writes of tables no cache reads (inquiries,
 * idempotency records, the webhook tables, storage intents, the dashboard's sessions, invitations and sign-in failures, API keys: their cache hears of revocations on
 * its own channel). Anything else counts as a write of its scope, so forgetting to mark a statement costs
 * a cache miss, never a stale answer.
 */
const NEUTRAL =
  /^\s*(?:select\b|\/\* cache-neutral \*\/|(?:savepoint|release|rollback|begin|commit|set|reset|show)\b|(?:insert\s+into|update|delete\s+from)\s+"?(?:inquiries|idempotency_keys|webhook_[a-z_]+|storage_intents|api_keys|dashboard_[a-z_]+)"?[\s(])/i;

/**
 * Counts the writes of one database (both engines alike): each statement that is not NEUTRAL moves the
 * generation of the write scope it runs in when it is sent and again when it ends (a statement outside a
 * transaction commits as it ends: a read that began while it ran may have seen the state before it, and
 * must not be kept under the generation after it). Inside a transaction the scopes are remembered in
 * `touched` and moved again when it ends (`ended`), before and after its COMMIT.
 */
class WriteCounter {
  readonly generations = new Generations();
  observer: QueryObserver | undefined;

  statement<R>(sql: string, run: () => Promise<R>, touched?: Set<string | undefined>): Promise<R> {
    if (NEUTRAL.test(sql)) return timed(this.observer, sql, run);
    const scope = writeScope.getStore();
    this.generations.move(scope);
    touched?.add(scope);
    return timed(this.observer, sql, run).finally(() => this.generations.move(scope));
  }

  ended(touched: Set<string | undefined>): void {
    for (const scope of touched) this.generations.move(scope);
  }
}

class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;
  readonly counter = new WriteCounter();
  readonly writes = this.counter.generations;
  constructor(private readonly db: PgliteLike) {}

  private statement<R>(sql: string, run: () => Promise<R>, touched?: Set<string | undefined>): Promise<R> {
    return this.counter.statement(sql, run, touched);
  }

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const work = boundWork.getStore();
    if (work) return work.query<T>(this, sql, params);
    // Hot statements are parsed and planned once (about a third of a create's cost on PGlite).
    const name = PREPARABLE.get(sql);
    const result = await this.statement(sql, () =>
      name === undefined ? this.db.query<T>(sql, params as unknown[]) : this.db.queryPrepared<T>(name, sql, params as unknown[]),
    );
    return result.rows;
  }

  async queryText(sql: string, params: readonly unknown[] = [], options?: TextQueryOptions): Promise<Array<Buffer | null> | undefined> {
    if (boundWork.getStore()) return encodedRow(await this.query(sql, params));
    const row = await this.statement(sql, () => this.db.queryText(sql, params as unknown[], options));
    return row?.map((column) => column && Buffer.from(column.buffer, column.byteOffset, column.byteLength));
  }

  /**
   * PGlite runs one transaction at a time and every other query waits for it (its own mutex), so a
   * held transaction blocks the database until it ends: the bound work holds it only from the
   * request's first query to its answer, never while a client sends a body.
   */
  begin(): Promise<HeldTransaction> {
    return new Promise((resolve, reject) => {
      let decide!: (commit: boolean) => void;
      const decided = new Promise<boolean>((r) => {
        decide = r;
      });
      let open = true;
      const touched = new Set<string | undefined>();
      const outcome = this.db.transaction(async (tx) => {
        resolve({
          query: async <R>(sql: string, params: readonly unknown[] = []) => {
            if (!open) throw new Error('The transaction has ended');
            return (await this.statement(sql, () => tx.query<R>(sql, params as unknown[]), touched)).rows;
          },
          commit: async () => {
            open = false;
            this.counter.ended(touched);
            decide(true);
            try {
              await outcome;
            } finally {
              this.counter.ended(touched);
            }
          },
          rollback: async () => {
            open = false;
            decide(false);
            await outcome.catch(() => undefined);
            this.counter.ended(touched);
          },
        });
        if (!(await decided)) throw ROLLBACK;
      });
      outcome.catch((err) => {
        if (err !== ROLLBACK) reject(err);
      });
    });
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const work = boundWork.getStore();
    if (work) return work.transaction(this, fn);
    const touched = new Set<string | undefined>();
    return this.db
      .transaction(async (tx) =>
        fn({
          query: async <R>(sql: string, params: readonly unknown[] = []) =>
            (await this.statement(sql, () => tx.query<R>(sql, params as unknown[]), touched)).rows,
        }),
      )
      .finally(() => this.counter.ended(touched));
  }

  async exec(sql: string): Promise<void> {
    this.writes.move(undefined);
    try {
      await this.db.exec(sql);
    } finally {
      this.writes.move(undefined);
    }
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}

const ignoreSessionError = () => undefined;

/** Back to the pool, or destroyed when `err` says the session is unusable; a destroyed socket's late errors stay ignored. */
function giveBack(client: pg.PoolClient, err?: Error): void {
  if (!err) client.off('error', ignoreSessionError);
  client.release(err);
}

class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  readonly counter = new WriteCounter();
  readonly writes = this.counter.generations;
  /**
   * Whether preparable statements run as named prepared statements, parsed and planned once per
   * connection (a create's statement cost three times a bare INSERT to parse and plan). Only outside
   * transactions: a statement that fails there changed nothing and is retried. A transaction-pooling
   * PgBouncer before 1.21 cannot keep them (the next statement may reach another server connection):
   * the first such failure turns them off for the process, and that statement runs again unnamed.
   * Names follow from the text, so a statement found on another connection is the same statement.
   */
  private prepare = true;
  constructor(readonly pool: pg.Pool) {}

  private statement<R>(sql: string, run: () => Promise<R>, touched?: Set<string | undefined>): Promise<R> {
    return this.counter.statement(sql, run, touched);
  }

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const work = boundWork.getStore();
    if (work) return work.query<T>(this, sql, params);
    const name = this.prepare ? PREPARABLE.get(sql) : undefined;
    if (name !== undefined) {
      try {
        return (await this.statement(sql, () => this.pool.query({ name, text: sql, values: params as unknown[] }))).rows as T[];
      } catch (err) {
        if (!PREPARED_STATEMENT_LOST.has((err as { code?: string }).code ?? '')) throw err;
        this.prepare = false;
        process.emitWarning(
          'Named prepared statements do not survive this connection (a transaction-pooling PgBouncer before 1.21?); running statements unnamed',
        );
      }
    }
    const result = await this.statement(sql, () => this.pool.query(sql, params as unknown[]));
    return result.rows as T[];
  }

  async queryText(sql: string, params: readonly unknown[] = [], options?: TextQueryOptions): Promise<Array<Buffer | null> | undefined> {
    if (boundWork.getStore()) return encodedRow(await this.query(sql, params));
    const statement = { text: sql, values: params as unknown[], rowMode: 'array' as const, types: AS_TEXT };
    const result = options?.preferIndexes
      ? await this.withoutSeqScans((client) => this.statement(sql, () => client.query<unknown[]>(statement)))
      : await this.statement(sql, () => this.pool.query<unknown[]>(statement));
    return result.rows[0]?.map((column) => (column === null ? null : Buffer.from(column as string)));
  }

  /**
   * Runs `fn` in a read-only transaction planned with sequential scans off (TextQueryOptions): BEGIN
   * and SET LOCAL go in one round trip; SET LOCAL also holds behind a transaction-pooling PgBouncer.
   * A read-only transaction writes nothing, so it does not move the write generation.
   */
  private async withoutSeqScans<R>(fn: (client: pg.PoolClient) => Promise<R>): Promise<R> {
    const client = await this.checkout();
    try {
      await client.query('BEGIN READ ONLY; SET LOCAL enable_seqscan = off');
      const result = await fn(client);
      await client.query('COMMIT');
      giveBack(client);
      return result;
    } catch (err) {
      // The session may be gone or mid-transaction: it is destroyed, never pooled again.
      await client.query('ROLLBACK').catch(() => undefined);
      giveBack(client, err as Error);
      throw err;
    }
  }

  /**
   * A client out of the pool. While checked out it has no pool listener: its session ending
   * (terminated, server gone) would otherwise be an unhandled 'error' event that ends the process. The
   * failure reaches the owner through its next query; `giveBack` removes the listener.
   */
  private async checkout(): Promise<pg.PoolClient> {
    const client = await this.pool.connect();
    client.on('error', ignoreSessionError);
    return client;
  }

  async begin(): Promise<HeldTransaction> {
    const client = await this.checkout();
    try {
      await client.query('BEGIN');
    } catch (err) {
      giveBack(client, err as Error);
      throw err;
    }
    let open = true;
    const touched = new Set<string | undefined>();
    // After the end no late query of its owner may reach the connection, which is back in the pool.
    const end = async (sql: 'COMMIT' | 'ROLLBACK') => {
      if (!open) return;
      open = false;
      // Before and after: a read that began while the COMMIT ran may have seen the state before it.
      this.counter.ended(touched);
      try {
        const result = await client.query(sql);
        // COMMIT of a transaction a failed statement aborted answers ROLLBACK instead of failing.
        if (sql === 'COMMIT' && result.command !== 'COMMIT') throw new Error('The transaction was rolled back');
        giveBack(client);
      } catch (err) {
        giveBack(client, err as Error);
        throw err;
      } finally {
        this.counter.ended(touched);
      }
    };
    return {
      query: async <R>(sql: string, params: readonly unknown[] = []) => {
        if (!open) throw new Error('The transaction has ended');
        return (await this.statement(sql, () => client.query(sql, params as unknown[]), touched)).rows as R[];
      },
      commit: () => end('COMMIT'),
      rollback: () => end('ROLLBACK').catch(() => undefined),
    };
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const work = boundWork.getStore();
    if (work) return work.transaction(this, fn);
    const client = await this.checkout();
    let failure: Error | undefined;
    const touched = new Set<string | undefined>();
    try {
      await client.query('BEGIN');
      const result = await fn({
        query: async <R>(sql: string, params: readonly unknown[] = []) =>
          (await this.statement(sql, () => client.query(sql, params as unknown[]), touched)).rows as R[],
      });
      this.counter.ended(touched);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      failure = err as Error;
      // A session that cannot roll back is destroyed, not pooled again.
      const rolledBack = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      if (rolledBack) failure = undefined;
      throw err;
    } finally {
      this.counter.ended(touched);
      giveBack(client, failure);
    }
  }

  async exec(sql: string): Promise<void> {
    this.writes.move(undefined);
    try {
      await this.pool.query(sql);
    } finally {
      this.writes.move(undefined);
    }
  }

  private closed = false;

  /** Idempotent, as PGlite's is: shutdown paths may close twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}

/** Reports every statement of this database to `observer` (undefined stops); a no-op for other Database implementations. */
export function observeQueries(db: Database, observer: QueryObserver | undefined): void {
  if (db instanceof PostgresDatabase || db instanceof PgliteDatabase) db.counter.observer = observer;
}

/** Connection counts of the PostgreSQL pool; undefined on the embedded database. */
export function poolStats(db: Database): { total: number; idle: number; waiting: number; max: number } | undefined {
  if (!(db instanceof PostgresDatabase)) return undefined;
  const { pool } = db;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; undefined means in memory (tests). */
  dataDir?: string | undefined;
  poolSize?: number;
  /** PGlite only: run the database in a worker thread (src/db/pglite-thread.ts), as the server does. */
  thread?: boolean;
  /** With `thread`: how the database's thread yields the CPU (DATABASE_THREAD_PRIORITY by default). */
  threadPriority?: ThreadPriority;
  /**
   * PGlite in this thread only: start from this dump of a data directory (PGlite's `dumpDataDir`)
   * instead of an empty cluster. Tests start from a migrated one (test/helpers/pglite-snapshot.ts):
   * a fresh cluster's initdb is most of a test file's set-up.
   */
  snapshot?: Blob | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle client losing its server must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    return new PostgresDatabase(pool);
  }
  const dataDir = options.dataDir ?? 'memory://';
  if (options.thread) return new PgliteDatabase(await PgliteThread.open(dataDir, { priority: options.threadPriority ?? DATABASE_THREAD_PRIORITY }));
  const pglite = options.snapshot
    ? await PGlite.create({ dataDir, loadDataDir: options.snapshot, parsers: PGLITE_PARSERS })
    : await PGlite.create(dataDir, { parsers: PGLITE_PARSERS });
  return new PgliteDatabase(
    Object.assign(pglite, {
      queryPrepared: <T>(name: string, sql: string, params: unknown[]) => queryPrepared<T>(pglite, name, sql, params),
      queryText: (sql: string, params: unknown[], options?: TextQueryOptions) => queryText(pglite, sql, params, options),
    }),
  );
}
