import { execFileSync } from 'node:child_process';
import { existsSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { TextQueryOptions } from './pglite-prepared.js';

/**
 * PGlite in a worker thread (issue 14). PGlite runs SQL synchronously in WebAssembly: on the server's
 * own thread every statement of a write stops the event loop, and cached public reads wait behind it.
 * Here the database lives in a worker (src/db/pglite-worker.ts) and this object offers the part of
 * PGlite's interface `PgliteDatabase` uses (query, transaction, exec, close), each call one message.
 * Semantics are PGlite's: one transaction at a time, other statements wait for it; the DATA_DIR lock,
 * held by this process, covers the worker too.
 */

/**
 * How the PGlite thread yields the CPU to the server's thread (Linux; elsewhere it runs as the process
 * does): `idle` is the SCHED_IDLE policy (a contended core goes to the ordinary threads of its group
 * first; it keeps a minimal share, 3 against 1,024 per ordinary thread), a number is that many nice levels
 * below the opener, capped at 19 (19: about 1/70 of a contended core; 0: equal).
 */
export type ThreadPriority = 'idle' | number;

/** Where util-linux's `chrt` is looked for (absolute: never a `chrt` found through PATH). */
export const CHRT_PATHS = ['/usr/bin/chrt', '/bin/chrt'];

/**
 * SCHED_IDLE by default. Cached public reads need only the server's thread; what competes with them for
 * a core is the database thread working through queued writes (and uncached reads). Under that
 * contention the reads keep the core and the database work waits for a free one; with a core to spare
 * nothing changes. Four clients writing as fast as they can cost the anonymous gallery read (bench/
 * partner.ts, mixed, PGlite) 0.37-0.40 of its idle rate at nice +5, 0.45-0.58 at +19, 0.55-0.63 idle.
 * The price: while anonymous reads saturate every core, database work waits for what they leave (writes
 * in bench/load.ts: 52-124/s against 168-192 at +10/+19, p99 80 ms to 2.7 s against 57-85 ms). Both in
 * docs/performance.md (issue 14); docs/decisions.md says when to choose +19 instead.
 */
export const DATABASE_THREAD_PRIORITY: ThreadPriority = 'idle';

/**
 * Lowers the calling thread's scheduling priority (the PGlite worker, the Argon2 workers of
 * dashboard/people/passwords.ts; Linux, /proc/thread-self names the thread): its own nice value, 19 for
 * `idle`, then for `idle` the SCHED_IDLE policy. Node has no call for a policy, so
 * util-linux's `chrt` sets it (found at a fixed path, never through PATH; fixed arguments; once at start).
 * Best effort: without /proc the thread keeps the process's priority, without `chrt` it keeps nice 19.
 */
export function lowerThreadPriority(priority: ThreadPriority): void {
  let tid: number;
  try {
    tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return;
    setPriority(tid, priority === 'idle' ? 19 : Math.min(19, getPriority(tid) + priority));
  } catch {
    return; // not Linux, or not permitted: nothing to do
  }
  if (priority !== 'idle') return;
  const chrt = CHRT_PATHS.find((p) => existsSync(p));
  if (!chrt) return;
  try {
    execFileSync(chrt, ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    // not permitted: nice 19 stays
  }
}

/** A rejected call's error as the worker sends it: message and the fields PostgreSQL errors carry (code, constraint…). */
type WireError = { message: string } & Record<string, unknown>;
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

export interface ThreadTransaction {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

export class PgliteThread {
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private nextId = 1;
  private nextTx = 1;
  private exited: Error | undefined;
  closed = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => {
      const call = this.pending.get(reply.id);
      if (!call) return;
      this.pending.delete(reply.id);
      if (reply.ok) call.resolve(reply.value);
      else call.reject(Object.assign(new Error(reply.error.message), reply.error));
    });
    const fail = (err: Error) => {
      this.exited ??= err;
      for (const call of this.pending.values()) call.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The database thread exited (code ${code})`)));
  }

  /**
   * Starts the worker and opens the database in `dataDir` (`memory://` for none); the worker lowers its
   * own scheduling priority to `priority` (ThreadPriority; none by default).
   */
  static async open(dataDir: string, options: { priority?: ThreadPriority } = {}): Promise<PgliteThread> {
    // Compiled: the .js next to this file. From source (tests, tsx): the .ts, with tsx's loader
    // registered inside the worker first (a worker does not inherit the parent's loader hooks).
    const fromSource = import.meta.url.endsWith('.ts');
    const worker = fromSource
      ? new Worker(
          `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./pglite-worker.ts', import.meta.url).href)}); });`,
          { eval: true, workerData: { dataDir, priority: options.priority } },
        )
      : new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData: { dataDir, priority: options.priority } });
    const thread = new PgliteThread(worker);
    try {
      await thread.call({ op: 'ready' });
    } catch (err) {
      await worker.terminate();
      throw err;
    }
    return thread;
  }

  private call<T>(message: Record<string, unknown>): Promise<T> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  query<T>(sql: string, params: unknown[] = []): Promise<{ rows: T[] }> {
    return this.call({ op: 'query', sql, params });
  }

  queryPrepared<T>(name: string, sql: string, params: unknown[]): Promise<{ rows: T[] }> {
    return this.call({ op: 'prepared', name, sql, params });
  }

  /** See queryText in src/db/pglite-prepared.ts: the row's bytes arrive transferred, not copied. */
  queryText(sql: string, params: unknown[], options?: TextQueryOptions): Promise<Array<Uint8Array | null> | undefined> {
    return this.call({ op: 'text', sql, params, ...(options ? { options } : {}) });
  }

  async exec(sql: string): Promise<void> {
    await this.call({ op: 'exec', sql });
  }

  /** As PGlite's: commits when fn resolves, rolls back when it throws (the error is rethrown). */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const tx = this.nextTx++;
    await this.call({ op: 'begin', tx });
    let result: T;
    try {
      result = await fn({ query: <R>(sql: string, params: unknown[] = []) => this.call<{ rows: R[] }>({ op: 'query', tx, sql, params }) });
    } catch (err) {
      await this.call({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw err;
    }
    await this.call({ op: 'end', tx, commit: true });
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      if (!this.exited) await this.call({ op: 'close' });
    } finally {
      await this.worker.terminate();
    }
  }
}
