import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Config } from '../../config.js';
import { boundWork } from '../../db/bound-work.js';
import type { Database } from '../../db/client.js';
import { FailureStreak } from '../../failure-streak.js';
import { newId } from '../../ids.js';
import { OUTBOX_CHANNEL, outboxSignal } from './events.js';
import { type ClaimedDelivery, webhooksRepository as repo } from './repository.js';
import { SecretUnavailableError, signatureHeader, unseal } from './secrets.js';
import { type SendResult, postWebhook } from './send.js';

/** Attempts one instance sends at once; claimed in batches of at least half of it. */
const CONCURRENCY = 32;
/** Safety net when no notification arrives (LISTEN down, another instance's write): look this often. */
const POLL_MS = 2_000;
/** On PostgreSQL without a LISTEN connection, an in-process signal comes before the commit: look again after these. */
const CHASE_MS = [20, 200, 1_000];
const RECONNECT_MS = 1_000;
const MIN_WAIT_MS = 20;
/** Successes finishing within this window are recorded by one statement. */
const BATCH_WINDOW_MS = 5;
const FAILING_DISABLE_MS = 3 * 24 * 3_600_000;

/**
 * What became of one attempt: `succeeded` (2xx), `retrying` (failed, another attempt is queued),
 * `gave_up` (failed, it was the schedule's last), `disabled` (failed and the endpoint was disabled:
 * 410, or failing for 3 days).
 */
export type DeliveryOutcome = 'succeeded' | 'retrying' | 'gave_up' | 'disabled';

/**
 * Delivers the outbox: claims due attempts (see repository.claim), signs and POSTs each, and records
 * the outcome with the next attempt when it failed. Woken by the commit of an emitting transaction
 * (NOTIFY on PostgreSQL, an in-process signal on PGlite) and by a timer for retries that fall due.
 */
export class DeliveryWorker {
  private readonly id = randomUUID();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = true;
  private ticking = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private listener: pg.Client | undefined;
  private listening = false;
  private reconnect: NodeJS.Timeout | undefined;
  private readonly leaseMs: number;
  private readonly onSignal = () => this.signalled();
  /** During an outage: one warn line when claiming or LISTEN starts failing, one info line when it works again. */
  private readonly claiming: FailureStreak;
  private readonly listenStreak: FailureStreak;

  constructor(
    private readonly db: Database,
    private readonly config: Readonly<Config>,
    private readonly log: FastifyBaseLogger,
    /** Told the outcome of each attempt this instance sent and recorded (metrics). */
    private readonly onOutcome?: (outcome: DeliveryOutcome) => void,
  ) {
    // Longer than any send (timeout) plus recording it; a dead instance's attempts are retaken after it.
    this.leaseMs = config.webhooks.timeoutMs + 5_000;
    this.claiming = new FailureStreak(log, 'webhook delivery worker: claiming');
    this.listenStreak = new FailureStreak(log, 'webhook delivery worker: LISTEN');
  }

  async start(): Promise<void> {
    this.stopped = false;
    // Alone on the data directory, no other worker can hold a lease: the ones left are a crashed life's.
    if (this.db.kind === 'pglite') await repo.releaseAllLeases(this.db);
    outboxSignal.on('queued', this.onSignal);
    if (this.db.kind === 'postgres' && this.config.databaseDirectUrl) this.listen(this.config.databaseDirectUrl);
    this.wake();
  }

  /** Stops claiming, then waits for the attempts in flight (each ends within the timeout) to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    outboxSignal.off('queued', this.onSignal);
    clearTimeout(this.timer);
    clearTimeout(this.reconnect);
    const client = this.listener;
    this.listener = undefined;
    await client?.end().catch(() => undefined);
    while (this.inFlight.size > 0 || this.ticking) {
      await Promise.all([...this.inFlight]);
      if (this.ticking) await new Promise((r) => setTimeout(r, 5));
    }
  }

  private signalled(): void {
    if (this.db.kind === 'pglite') this.wake();
    else if (this.listening) return;
    else for (const ms of CHASE_MS) boundWork.exit(() => setTimeout(() => this.wake(), ms).unref());
  }

  /** Looks for due attempts soon; outside any request's bound work, so it never joins a request's transaction. */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    boundWork.exit(() => setImmediate(() => void this.tick()));
  }

  private async tick(): Promise<void> {
    let idle = false;
    // With nothing in flight a claim of any size is worth it (new work, or the last slot freed).
    const idleBefore = this.inFlight.size === 0;
    try {
      while (!this.stopped) {
        this.again = false;
        const free = CONCURRENCY - this.inFlight.size;
        // While busy, claim in batches (half the slots) rather than one row per finished attempt.
        if (free <= 0 || (free < CONCURRENCY / 2 && !idleBefore)) break;
        const claimed = await repo.claim(this.db, this.id, free, this.leaseMs);
        this.claiming.succeeded();
        for (const d of claimed) this.track(this.deliver(d));
        if (claimed.length < free && !this.again) {
          idle = true;
          break;
        }
      }
      if (idle && !this.stopped) await this.sleepUntilDue();
    } catch (err) {
      if (!this.stopped) this.claiming.failed(err, 'webhook delivery worker: claiming failed; retrying');
      this.schedule(POLL_MS);
    } finally {
      this.ticking = false;
      if (this.again && !this.stopped) this.wake();
    }
  }

  private async sleepUntilDue(): Promise<void> {
    const due = await repo.nextDue(this.db);
    // At least MIN_WAIT_MS: the claim just found nothing due, so "due now" is a race, not a reason to spin.
    const wait = due === null ? POLL_MS : Math.max(MIN_WAIT_MS, Math.min(POLL_MS, Date.parse(due) - Date.now()));
    this.schedule(wait);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = boundWork.exit(() => setTimeout(() => this.wake(), ms));
    this.timer.unref();
  }

  private track(work: Promise<void>): void {
    const tracked = work
      .catch((err: unknown) => this.log.error({ err: { message: (err as Error).message } }, 'webhook delivery worker: recording an attempt failed'))
      .finally(() => {
        this.inFlight.delete(tracked);
        this.wake();
      });
    this.inFlight.add(tracked);
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    let result: SendResult;
    try {
      const key = this.config.webhooks.secretKey;
      const secrets = [...new Set([d.secret, ...d.retiredSecrets].map((sealed) => unseal(sealed, key)))];
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        'webhook-id': d.eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, d.eventId, timestamp, d.body),
      };
      result = await postWebhook(d.url, headers, d.body, { timeoutMs: this.config.webhooks.timeoutMs, allowPrivate: this.config.allowPrivateUrls });
    } catch (err) {
      if (!(err instanceof SecretUnavailableError)) throw err;
      result = { status: null, error: `the endpoint secret cannot be read: ${err.message}`, durationMs: 0 };
    }
    await this.record(d, result);
  }

  private async record(d: ClaimedDelivery, result: SendResult): Promise<void> {
    const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
    const outcome = {
      status: succeeded ? ('succeeded' as const) : ('failed' as const),
      responseStatus: result.status,
      error: result.error?.slice(0, 500) ?? null,
      durationMs: result.durationMs,
    };
    // The common case: batched with the other successes of the moment into one statement.
    if (succeeded && d.failingSince === null && result.status !== null) {
      await this.succeeded({ id: d.id, organizationId: d.organizationId, responseStatus: result.status, durationMs: result.durationMs });
      return this.onOutcome?.('succeeded');
    }
    const recorded = await this.db.transaction(async (tx): Promise<DeliveryOutcome | undefined> => {
      const mine = await repo.finish(tx, this.id, d.organizationId, d.id, outcome);
      if (!mine) return undefined;
      if (succeeded) {
        await repo.markHealthy(tx, d.organizationId, d.endpointId);
        return 'succeeded';
      }
      if (result.status === 410) {
        await repo.disable(tx, d.organizationId, d.endpointId, 'The endpoint answered 410 Gone');
        return 'disabled';
      }
      const failingSince = await repo.markFailing(tx, d.organizationId, d.endpointId);
      if (Date.now() - Date.parse(failingSince) >= FAILING_DISABLE_MS) {
        await repo.disable(tx, d.organizationId, d.endpointId, 'Every delivery attempt failed for 3 days');
        return 'disabled';
      }
      const delay = this.config.webhooks.retryScheduleMs[d.attempt - 1];
      if (delay === undefined) return 'gave_up';
      // ±20 % jitter, so the retries of many events that failed together do not arrive together.
      const dueInMs = Math.round(delay * (0.8 + Math.random() * 0.4));
      await repo.queueAttempt(tx, { id: newId(), organizationId: d.organizationId, endpointId: d.endpointId, eventId: d.eventId, dueInMs });
      return 'retrying';
    });
    if (recorded) this.onOutcome?.(recorded);
  }

  private batch: Array<Parameters<typeof repo.finishSucceeded>[2][number]> = [];
  private flushing: Promise<void> | undefined;

  /** Resolves once the success is recorded, with those that finished meanwhile, in one statement. */
  private succeeded(done: Parameters<typeof repo.finishSucceeded>[2][number]): Promise<void> {
    this.batch.push(done);
    this.flushing ??= new Promise<void>((resolve) => setTimeout(resolve, BATCH_WINDOW_MS)).then(async () => {
      const batch = this.batch;
      this.batch = [];
      this.flushing = undefined;
      await repo.finishSucceeded(this.db, this.id, batch);
    });
    return this.flushing;
  }

  /** One LISTEN connection (DATABASE_DIRECT_URL: a session, not a transaction-pooled one), reconnected when lost. */
  private listen(url: string): void {
    const client = new pg.Client({ connectionString: url });
    this.listener = client;
    const lost = () => {
      if (this.listener !== client) return;
      this.listening = false;
      this.listener = undefined;
      client.end().catch(() => undefined);
      if (!this.stopped) {
        this.reconnect = setTimeout(() => this.listen(url), RECONNECT_MS);
        this.reconnect.unref();
      }
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (msg) => {
      if (msg.channel === OUTBOX_CHANNEL) this.wake();
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${OUTBOX_CHANNEL}`))
      .then(() => {
        if (this.listener !== client) return void client.end().catch(() => undefined);
        this.listening = true;
        this.listenStreak.succeeded();
        // Whatever was queued while the connection was down.
        this.wake();
      })
      .catch((err: unknown) => {
        if (!this.stopped) this.listenStreak.failed(err, 'webhook delivery worker: LISTEN unavailable; polling');
        lost();
      });
  }
}
