import type { FastifyBaseLogger } from 'fastify';
import { boundWork } from '../../db/bound-work.js';
import type { Database } from '../../db/client.js';
import { organizationsRepository as repo } from './repository.js';

/** How often a key's use is written at most (per key and process; the statement also skips a recent one). */
export const KEY_USE_EVERY_MS = 60_000;
/** Keys remembered before the ones written longer ago than KEY_USE_EVERY_MS are forgotten. */
const REMEMBERED = 10_000;

/**
 * When each API key was last used, for the dashboard's keys screen (issue 35). An authenticated request
 * is almost always answered from the key cache with no statement at all, so recording every use would
 * add a write to every request. Instead: the first use of a key in a minute (per process) starts one
 * UPDATE, not awaited by the request; the other uses that minute cost a map lookup. The statement itself
 * skips a key another instance recorded less than a minute ago, so N instances write a key at most N
 * times a minute and usually once. "Last used" is therefore true to the minute. A failed write is
 * forgotten (logged): the next use tries again.
 */
export class KeyUse {
  /** Key id -> when this process last started a write for it (ms). */
  private readonly written = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** A request authenticated with `keyId`; whether this use started a write (the first in a minute). */
  seen(keyId: string, now = Date.now()): boolean {
    if (this.closed) return false;
    const last = this.written.get(keyId);
    if (last !== undefined && now - last < KEY_USE_EVERY_MS) return false;
    if (this.written.size >= REMEMBERED) this.forgetOlderThan(now - KEY_USE_EVERY_MS);
    this.written.set(keyId, now);
    // Outside the request's bound transaction (a keyed write's): the use is recorded even if that rolls back.
    const write: Promise<void> = boundWork
      .exit(() => repo.recordKeyUse(this.db, keyId, KEY_USE_EVERY_MS / 1000))
      .catch((err: unknown) => {
        if (this.written.get(keyId) === now) this.written.delete(keyId);
        this.log?.warn({ err, keyId }, 'recording an API key use failed');
      })
      .finally(() => this.inFlight.delete(write));
    this.inFlight.add(write);
    return true;
  }

  /** Resolves when the writes started so far have ended (tests; close). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Starts no more writes; waits for those under way (before the database closes). */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }

  private forgetOlderThan(cutoff: number): void {
    for (const [id, at] of this.written) if (at < cutoff) this.written.delete(id);
    // Every key was used within the minute: forget them all rather than grow (costs a write each, once).
    if (this.written.size >= REMEMBERED) this.written.clear();
  }
}
