import type { FastifyBaseLogger } from 'fastify';

/**
 * A background task that retries by itself (the LISTEN connections, the webhook worker's claim): the
 * first failure of a run is logged at warn, the retries that fail after it at debug, and the first
 * success after them at info with how many failed and for how long. A database outage is then two
 * lines per task, as requests' outages are (src/http/outages.ts), not one line per retry.
 */
export class FailureStreak {
  private failures = 0;
  private since = 0;

  constructor(
    private readonly log: FastifyBaseLogger,
    /** Names the task in the recovery line ("webhook delivery worker: claiming"). */
    private readonly task: string,
  ) {}

  failed(err: unknown, msg: string): void {
    const fields = { err: { message: err instanceof Error ? err.message : String(err) } };
    if (this.failures++ === 0) {
      this.since = Date.now();
      this.log.warn(fields, msg);
    } else this.log.debug({ ...fields, failures: this.failures }, msg);
  }

  succeeded(): void {
    if (this.failures === 0) return;
    this.log.info({ failures: this.failures, ms: Date.now() - this.since }, `${this.task}: working again after ${this.failures} failed attempts`);
    this.failures = 0;
  }
}
