import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The organization whose data the statements of this asynchronous context write: set around a request's
 * handler once its key names the organization (src/http/auth.ts), and around background work that knows
 * its organization (an image's variants). A write outside any scope moves every organization's generation.
 */
export const writeScope = new AsyncLocalStorage<string | undefined>();

/** Runs `fn` with its writes counted against `scope` only (undefined: against every scope). */
export function inWriteScope<T>(scope: string | undefined, fn: () => T): T {
  return writeScope.run(scope, fn);
}

/** What a cache reads of the write generations: whether anything of a scope moved since a stamp. */
export interface WriteClock {
  /** The stamp to keep with a read that starts now. */
  now(): number;
  /** Whether a write of `scope` (or one of no scope) happened since `stamp`; without a scope, whether any write happened. */
  movedSince(stamp: number, scope: string | undefined): boolean;
}

/** Scopes remembered at most: past it they are forgotten and their writes count as of every scope (one move of all). */
const MAX_SCOPES = 100_000;

/**
 * Write generations per scope (an organization; a key id for the API keys). One clock moves with every
 * move of any scope; each scope remembers the clock of its last move, and a move of no scope is a move of
 * all. A read stamped with the clock when it began is still current for scope S while S's last move (and
 * the last move of all) is not after the stamp: one comparison, and the scope may be learnt from what
 * the read found (a page knows its organization only once it has read its estate).
 */
export class Generations implements WriteClock {
  private clock = 0;
  private all = 0;
  private readonly scopes = new Map<string, number>();

  now(): number {
    return this.clock;
  }

  move(scope: string | undefined): void {
    this.clock++;
    if (scope === undefined) {
      this.all = this.clock;
      return;
    }
    if (this.scopes.size >= MAX_SCOPES && !this.scopes.has(scope)) {
      this.scopes.clear();
      this.all = this.clock;
    }
    this.scopes.set(scope, this.clock);
  }

  movedSince(stamp: number, scope: string | undefined): boolean {
    if (scope === undefined) return this.clock > stamp;
    return this.all > stamp || (this.scopes.get(scope) ?? 0) > stamp;
  }
}
