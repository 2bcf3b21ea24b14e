import { createRequire } from 'node:module';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { isPublishable } from '../modules/organizations/service.js';
import { RedisLink } from './redis-link.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Redis connection of the rate limiter when REDIS_URL is set (readiness reports its state). */
    redisLink: RedisLink | undefined;
  }
}

interface Counted {
  current: number;
  ttl: number;
}
type Incr = (key: string, done: (err: Error | null, result: Counted | null) => void, timeWindow: number, max: number) => void;
interface Store {
  incr: Incr;
  child(routeOptions: Record<string, unknown>): Store;
}
type StoreClass<A extends unknown[]> = new (...args: A) => Store;

// @fastify/rate-limit's own two stores (CommonJS, no typings of their own): the Redis one keeps its
// atomic Lua counter, the local one counts in this process.
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreClass<[boolean, boolean, unknown, string]>;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreClass<[boolean, boolean, number?]>;

/**
 * Counts in Redis while it answers within its deadline, in this instance's memory otherwise: a
 * Redis that is down or hung costs a request at most the deadline once, then nothing until it is
 * back (RedisLink probes it), and limits stay enforced per instance meanwhile.
 */
function fallbackStore(link: RedisLink, namespace: string): FastifyRateLimitStoreCtor {
  class FallbackStore {
    constructor(
      private readonly shared: Store,
      private readonly local: Store,
    ) {}
    incr(key: string, done: Parameters<Incr>[1], timeWindow: number, max: number): void {
      const locally = () => {
        link.servedWithout();
        this.local.incr(key, done, timeWindow, max);
      };
      if (link.state !== 'ok') {
        locally();
        return;
      }
      const counted = () =>
        new Promise<Counted>((resolve, reject) =>
          this.shared.incr(key, (err, res) => (err || !res ? reject(err ?? new Error('Redis gave no count')) : resolve(res)), timeWindow, max),
        );
      link.call(counted).then((res) => done(null, res), locally);
    }
    child(routeOptions: Record<string, unknown>): FallbackStore {
      return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions));
    }
  }
  return class extends FallbackStore {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const continueExceeding = params.continueExceeding === true;
      const exponentialBackoff = params.exponentialBackoff === true;
      super(new RedisStore(continueExceeding, exponentialBackoff, link.client, namespace), new LocalStore(continueExceeding, exponentialBackoff));
    }
  } as unknown as FastifyRateLimitStoreCtor;
}

type Budget = 'key' | 'anonymous' | 'inquiry';

/**
 * A publishable key is shared by every visitor of the page it is in, so it draws from the anonymous
 * budget of each visitor's IP, not from one budget all visitors would exhaust together.
 */
const meteredKey = (request: FastifyRequest) => (request.auth && !isPublishable(request.auth) ? request.auth : null);

const budgetOf = (request: FastifyRequest): Budget => {
  const named = request.routeOptions.config?.rateLimitClass;
  if (named) return named;
  return meteredKey(request) ? 'key' : 'anonymous';
};

export interface RateLimitOptions {
  /** Prefix of the Redis counters; instances that should share budgets use the same one. */
  namespace?: string | undefined;
  /** Told of every 429, with the budget that ran out (metrics). */
  onRejected?: ((budget: Budget) => void) | undefined;
}

/**
 * Per-key (or per-client-IP when anonymous) request budgets through @fastify/rate-limit, counted in
 * Redis when REDIS_URL is set so every instance draws from one budget, in process otherwise (and
 * while Redis is down or does not answer within REDIS_TIMEOUT_MS).
 * It runs at preValidation: after authentication (onRequest) has named the key, before a body
 * is validated, so invalid requests count too.
 */
export async function installRateLimit(app: FastifyInstance, config: Readonly<Config>, options: RateLimitOptions = {}): Promise<void> {
  const { keyMax, anonymousMax, inquiryMax, windowMs } = config.rateLimit;
  const max: Record<Budget, number> = { key: keyMax, anonymous: anonymousMax, inquiry: inquiryMax };

  let link: RedisLink | undefined;
  if (config.redisUrl) {
    link = new RedisLink(config.redisUrl, config.redisTimeoutMs, app.log);
    await link.connect(); // a refusal is logged once; the client reconnects in the background
    const open = link;
    app.addHook('onClose', async () => open.close());
  }
  app.decorate('redisLink', link);

  await app.register(rateLimit, {
    global: true,
    hook: 'preValidation',
    timeWindow: windowMs,
    max: (request: FastifyRequest) => max[budgetOf(request)],
    keyGenerator: (request: FastifyRequest) => {
      const key = meteredKey(request);
      return `${budgetOf(request)}:${key ? `key:${key.keyId}` : `ip:${request.ip}`}`;
    },
    // Health, docs, the OpenAPI document and files are not metered; the operator surface is trusted.
    // The public page (auth none) names its budget: anonymous for the page, inquiry for its form.
    allowList: (request: FastifyRequest) => {
      const config = request.routeOptions.config;
      return config?.auth !== 'partner' && config?.auth !== 'public' && config?.rateLimitClass === undefined;
    },
    enableDraftSpec: true,
    ...(link ? { store: fallbackStore(link, options.namespace ?? 'pps-rate-limit:') } : {}),
    errorResponseBuilder: (request, context) => {
      options.onRejected?.(budgetOf(request));
      return Object.assign(
        new AppError('tooManyRequests', `Rate limit exceeded: at most ${context.max} requests per ${Math.round(windowMs / 1000)} s; retry in ${context.after}`),
        {
          retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
        },
      );
    },
  });
}
