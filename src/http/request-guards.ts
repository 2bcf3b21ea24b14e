import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { findNulString } from './validation.js';

/** Cross-cutting request hygiene: request-id echo, security headers, NUL strings, CORS. */
export function installRequestGuards(app: FastifyInstance, config: Readonly<Config>): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // PostgreSQL text cannot hold NUL; refuse it as a validation error naming the field.
  app.addHook('preValidation', async (request) => {
    if (request.body && typeof request.body === 'object') {
      const at = findNulString(request.body);
      if (at) throw new AppError('unprocessable', `Validation failed: ${at} must not contain NUL characters`);
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    const origin = request.headers.origin;
    if (origin) applyCors(request.routeOptions.config?.auth, origin, config.corsOrigins, reply);
    return payload;
  });

  // CORS preflight for any path.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method']) return;
    const origin = request.headers.origin;
    if (!origin) return;
    const allowed = config.corsOrigins.includes('*') || config.corsOrigins.includes(origin);
    const publicRead = request.headers['access-control-request-method'] === 'GET';
    if (!allowed && !publicRead) return reply.code(204).send();
    reply
      .header('access-control-allow-origin', allowed ? origin : '*')
      .header('access-control-allow-methods', allowed ? 'GET,POST,PUT,PATCH,DELETE,OPTIONS' : 'GET,OPTIONS')
      .header('access-control-allow-headers', 'authorization,content-type,idempotency-key,if-none-match,x-request-id')
      .header('access-control-max-age', '600')
      .header('vary', 'origin')
      .code(204)
      .send();
  });
}

/**
 * Public reads (add-on GETs, files) are open to any origin: the published viewer runs on the
 * developer's own domain. The partner surface answers CORS only for CORS_ORIGINS (none by default),
 * because a key must not be used from a browser page of another site.
 */
function applyCors(auth: string | undefined, origin: string, allowedOrigins: string[], reply: { header: (k: string, v: string) => unknown }): void {
  if (allowedOrigins.includes('*') || allowedOrigins.includes(origin)) {
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'origin');
    reply.header('access-control-expose-headers', 'etag,ratelimit-limit,ratelimit-remaining,ratelimit-reset,retry-after,idempotent-replayed,x-request-id');
  } else if (auth === 'public' || auth === 'none') {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'etag,ratelimit-limit,ratelimit-remaining,ratelimit-reset,retry-after,x-request-id');
  }
}
