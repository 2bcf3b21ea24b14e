import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { isPublishable } from '../modules/organizations/service.js';

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
 * Redis when REDIS_URL is set so every instance draws from one budget, in process otherwise.
 * It runs at preValidation: after authentication (onRequest) has named the key, before a body
 * is validated, so invalid requests count too.
 */
export async function installRateLimit(app: FastifyInstance, config: Readonly<Config>, options: RateLimitOptions = {}): Promise<void> {
  const { keyMax, anonymousMax, inquiryMax, windowMs } = config.rateLimit;
  const max: Record<Budget, number> = { key: keyMax, anonymous: anonymousMax, inquiry: inquiryMax };

  let redis: Redis | undefined;
  if (config.redisUrl) {
    // Fail fast instead of queueing: with skipOnError a Redis outage lets requests through unlimited
    // (logged) rather than making every request wait for it.
    redis = new Redis(config.redisUrl, {
      lazyConnect: true,
      connectTimeout: 1_000,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: (attempt) => Math.min(attempt * 250, 5_000),
    });
    let lastWarning = 0;
    redis.on('error', (err: Error) => {
      if (Date.now() - lastWarning < 30_000) return;
      lastWarning = Date.now();
      app.log.warn({ err: { message: err.message } }, 'Redis unavailable: rate limits are not enforced until it returns');
    });
    await redis.connect().catch(() => undefined); // reported by the error listener; reconnects in the background
    const client = redis;
    app.addHook('onClose', async () => {
      client.disconnect();
    });
  }

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
    skipOnError: true,
    enableDraftSpec: true,
    ...(redis ? { redis, nameSpace: options.namespace ?? 'pps-rate-limit:' } : {}),
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
