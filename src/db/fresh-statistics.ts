import { boundWork } from './bound-work.js';
import { CACHE_NEUTRAL, type Database } from './client.js';

/** The tables a bulk write reports (a fixed list: their names go into the statement). */
export type AnalyzedTable = 'apartments';

export interface FreshStatisticsOptions {
  /** Rows changed in a table since its last ANALYZE that make it due (issue 38: 1,000). */
  threshold?: number;
  /** Quiet time after the last reported write before the burst's ANALYZE runs. */
  delayMs?: number;
  /** A burst that never pauses is analyzed after this long at most. */
  maxDelayMs?: number;
}

interface Log {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

/**
 * Keeps the planner's numbers current after bulk writes (issue 38): PGlite has no autovacuum, and a
 * PostgreSQL whose autovacuum is off or behind plans a list with the row counts of another day (27.5 ms
 * instead of 12.8 ms for one list rebuild after 88k apartments). A bulk create, upsert or update reports
 * the rows it changed; once a table has `threshold` of them, one `ANALYZE` of the due tables runs when
 * the writes pause for `delayMs` (at most `maxDelayMs` after the first), so a burst of calls costs one
 * ANALYZE. It runs in the background on the shared pool, never in a request's transaction, a single
 * plain statement (as PgBouncer's transaction pooling wants); a failure is logged, never thrown.
 */
export class FreshStatistics {
  private readonly threshold: number;
  private readonly delayMs: number;
  private readonly maxDelayMs: number;
  /** Rows changed per table since its last ANALYZE began. */
  private readonly pending = new Map<AnalyzedTable, number>();
  private timer: NodeJS.Timeout | undefined;
  private burstStarted: number | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly log: Log,
    options: FreshStatisticsOptions = {},
  ) {
    this.threshold = options.threshold ?? 1000;
    this.delayMs = options.delayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 10_000;
  }

  /** `rows` rows of `table` were created or changed by a write that has committed or is about to. */
  changed(table: AnalyzedTable, rows: number): void {
    if (this.closed || rows <= 0) return;
    this.pending.set(table, (this.pending.get(table) ?? 0) + rows);
    if (![...this.pending.values()].some((n) => n >= this.threshold)) return;
    const now = Date.now();
    this.burstStarted ??= now;
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.delayMs, this.burstStarted + this.maxDelayMs - now));
    // Outside the request's bound work: the timer would otherwise run its statement in the request's
    // (by then finished) transaction.
    this.timer = boundWork.exit(() => setTimeout(() => void this.run(), wait));
    this.timer.unref();
  }

  /** Resolves when no ANALYZE is due or under way (tests, and close). */
  async settled(): Promise<void> {
    while (this.running || this.timer) {
      if (this.running) await this.running;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Drops what is due and waits for an ANALYZE under way. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async run(): Promise<void> {
    this.timer = undefined;
    this.burstStarted = undefined;
    // One at a time: a burst that became due while the last ANALYZE ran waits for it.
    while (this.running) await this.running;
    const due = [...this.pending].filter(([, rows]) => rows >= this.threshold).map(([table]) => table);
    if (due.length === 0 || this.closed) return;
    for (const table of due) this.pending.delete(table);
    this.running = this.analyze(due).finally(() => {
      this.running = undefined;
    });
    await this.running;
  }

  private async analyze(tables: AnalyzedTable[]): Promise<void> {
    const started = performance.now();
    try {
      // Statistics change no row a cache keeps: cache-neutral, so no kept answer is dropped for it.
      await this.db.query(`${CACHE_NEUTRAL} ANALYZE ${tables.map((t) => `"${t}"`).join(', ')}`);
      this.log.info({ tables, durationMs: Math.round(performance.now() - started) }, `statistics: analyzed ${tables.join(', ')} after a bulk write`);
    } catch (err) {
      this.log.warn({ err, tables }, `statistics: ANALYZE of ${tables.join(', ')} failed; the planner keeps its older numbers`);
    }
  }
}
