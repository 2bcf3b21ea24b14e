import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

export type RedisState = 'ok' | 'degraded';

/**
 * The one Redis connection of an instance, with a deadline on every call. A call that fails or
 * outlives the deadline (Redis down, or hung: a stopped process or a partition keeps the socket open
 * and answers nothing) marks Redis degraded; callers then fall back to what they do without Redis
 * and do not ask it again until a background PING answers within the deadline. Each change of state
 * is logged once: warn when degraded, info when back.
 */
export class RedisLink {
  readonly client: Redis;
  private current: RedisState = 'ok';
  private probe: NodeJS.Timeout | undefined;
  private probing = false;
  private closed = false;
  private since = 0;
  private skipped = 0;

  constructor(
    url: string,
    readonly deadlineMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.client = new Redis(url, {
      lazyConnect: true,
      connectTimeout: Math.max(1_000, deadlineMs),
      // ioredis rejects a command unanswered after commandTimeout; within() below bounds it too.
      commandTimeout: deadlineMs,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: (attempt) => Math.min(attempt * 250, 5_000),
    });
    this.client.on('error', (err: Error) => this.degrade(err));
  }

  get state(): RedisState {
    return this.current;
  }

  /** The first connection gets the connect timeout, not the command deadline: a slow start is not an outage. */
  async connect(): Promise<void> {
    await this.within(this.client.connect(), Math.max(1_000, this.deadlineMs)).catch((err: Error) => this.degrade(err));
  }

  /** Counts a request served without Redis (reported in the recovery line). */
  servedWithout(): void {
    this.skipped++;
  }

  /** The call's answer, or a rejection once deadlineMs has passed; either failure degrades the link. */
  async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await this.within(run());
    } catch (err) {
      this.degrade(err as Error);
      throw err;
    }
  }

  private within<T>(work: Promise<T>, ms = this.deadlineMs): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
    });
    work.catch(() => undefined); // a late failure of an abandoned call is not unhandled
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  private degrade(err: Error): void {
    if (this.closed || this.current === 'degraded') return;
    this.current = 'degraded';
    this.since = Date.now();
    this.skipped = 0;
    this.log.warn({ dependency: 'redis', err: { message: err.message } }, 'Redis unavailable: rate limits are counted per instance until it answers again');
    this.probe = setInterval(() => void this.tryRecover(), Math.max(250, Math.min(1_000, this.deadlineMs * 4)));
    this.probe.unref();
  }

  private async tryRecover(): Promise<void> {
    if (this.probing || this.closed || this.client.status !== 'ready') return;
    this.probing = true;
    try {
      await this.within(this.client.ping());
      if (this.closed || this.current === 'ok') return;
      this.current = 'ok';
      clearInterval(this.probe);
      this.probe = undefined;
      this.log.info(
        { dependency: 'redis', outageMs: Date.now() - this.since, servedWithoutRedis: this.skipped },
        'Redis answers again: rate limits are shared again',
      );
    } catch {
      // still down; the next probe tries again
    } finally {
      this.probing = false;
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.probe);
    this.client.disconnect();
  }
}
