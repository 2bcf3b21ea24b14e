import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { AppError, Dependency } from '../errors.js';

interface Outage {
  since: number;
  last: number;
  refused: number;
  timer: NodeJS.Timeout | undefined;
}

/** What a failing dependency's error says, without a stack: code and message are what an operator acts on. */
const causeOf = (err: unknown) => {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  return { code: typeof e?.code === 'string' ? e.code : undefined, message: typeof e?.message === 'string' ? e.message : String(err) };
};

/**
 * Requests refused because a dependency failed (503) or is full (507) are logged as one outage, not
 * one error line with a stack each (a 15 s database outage wrote 33,582 lines): a warn line when the
 * first is refused, with its cause; a warn line when none has been refused for `quietMs` (30 s, longer
 * than any deadline: a client retrying one slow-failing request at a time must not open an outage per
 * request), with the count and the length; each refused request at debug, with its request id.
 */
export class OutageLog {
  private readonly open = new Map<string, Outage>();

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly quietMs = 30_000,
  ) {}

  refused(error: AppError & { dependency: Dependency }, request: FastifyRequest): void {
    const kind = error.statusCode === 507 ? 'full' : 'unavailable';
    const name = `${error.dependency} ${kind}`;
    const now = Date.now();
    let outage = this.open.get(name);
    if (!outage) {
      outage = { since: now, last: now, refused: 0, timer: undefined };
      this.open.set(name, outage);
      this.log.warn(
        { dependency: error.dependency, outage: kind, cause: causeOf(error.cause) },
        `Outage: ${name}; requests that need it are refused (${error.statusCode}) until it returns`,
      );
      this.watch(name, outage);
    }
    outage.refused++;
    outage.last = now;
    request.log.debug({ dependency: error.dependency, cause: causeOf(error.cause) }, `request refused: ${name}`);
  }

  /** Ends the outage once quietMs passes without a refusal (checked at most once per quietMs). */
  private watch(name: string, outage: Outage): void {
    const wait = Math.max(10, outage.last + this.quietMs - Date.now());
    outage.timer = setTimeout(() => {
      if (Date.now() - outage.last < this.quietMs) return this.watch(name, outage);
      this.end(name, outage);
    }, wait);
    outage.timer.unref();
  }

  private end(name: string, outage: Outage): void {
    clearTimeout(outage.timer);
    this.open.delete(name);
    const [dependency, kind] = name.split(' ');
    this.log.warn(
      { dependency, outage: kind, refused: outage.refused, durationMs: outage.last - outage.since },
      `Outage over: ${name}; ${outage.refused} requests refused in ${((outage.last - outage.since) / 1000).toFixed(1)} s`,
    );
  }

  /** Logs the end of every open outage (at close). */
  flush(): void {
    for (const [name, outage] of [...this.open]) this.end(name, outage);
  }
}
