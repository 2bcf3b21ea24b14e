import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { isPublishable } from '../modules/organizations/service.js';
import { markAnsweredEarly, trackConnections } from './connection-state.js';
import { findUnstorableText } from './validation.js';

/** Cross-cutting request hygiene: request-id echo, security headers, text that cannot be stored, CORS, unread bodies. */
export function installRequestGuards(app: FastifyInstance, config: Readonly<Config>): void {
  trackConnections(app.server);
  acceptEmptyJson(app);
  // Callback hooks, not async ones: they run on every request and never wait, so they cost no promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // A hook that answers does not call done: Fastify then runs neither the next hooks nor the route.
    if (request.method === 'OPTIONS' && preflight(request, reply, config.corsOrigins)) return;
    done();
  });

  // Text PostgreSQL cannot hold as sent (NUL, lone UTF-16 surrogates) is refused here, once, for every
  // body, query string and header of every route, before any schema or service sees it: a 422 naming
  // the field instead of a 500 from the database or a value silently changed to U+FFFD.
  app.addHook('preValidation', (request, _reply, done) => {
    const found =
      (request.body && typeof request.body === 'object' ? findUnstorableText(request.body) : undefined) ??
      findUnstorableText(request.query) ??
      prefixed('header', findUnstorableText(request.headers));
    done(found && new AppError('unprocessable', `Validation failed: ${found.at || 'body'} ${found.problem}`));
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    drainUnreadBody(request.raw);
    reply.header('x-content-type-options', 'nosniff');
    if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'DENY');
    // A page that chose its own policy keeps it: the dashboard's same-origin lets its forms' posts carry their Origin (no-referrer sends Origin: null).
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'no-referrer');
    const origin = request.headers.origin;
    if (origin) {
      const auth = request.routeOptions.config?.auth;
      applyCors(auth === 'public' || auth === 'none' || isPublishable(request.auth), origin, config.corsOrigins, reply);
    }
    done(null, payload);
  });
}

/**
 * `Content-Type: application/json` with an empty body is a request without a body, as many HTTP clients
 * send every POST: a body-less POST (rotate-secret, retry) is answered, not refused as "empty JSON".
 * A route that needs a body still refuses it (400, the body must be a JSON object). Anything else goes
 * to Fastify's own parser unchanged (same limits, same prototype-poisoning checks).
 */
function acceptEmptyJson(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parse(request, body as string, done),
  );
}

/** CORS preflight for any path: answered 204 here, before authentication or rate limiting. True when answered. */
function preflight(request: FastifyRequest, reply: FastifyReply, corsOrigins: string[]): boolean {
  const origin = request.headers.origin;
  if (!request.headers['access-control-request-method'] || !origin) return false;
  const allowed = corsOrigins.includes('*') || corsOrigins.includes(origin);
  const publicRead = request.headers['access-control-request-method'] === 'GET';
  if (!allowed && !publicRead) {
    reply.code(204).send();
    return true;
  }
  reply
    .header('access-control-allow-origin', allowed ? origin : '*')
    .header('access-control-allow-methods', allowed ? 'GET,POST,PUT,PATCH,DELETE,OPTIONS' : 'GET,OPTIONS')
    .header('access-control-allow-headers', 'authorization,content-type,idempotency-key,if-none-match,x-request-id')
    .header('access-control-max-age', '600')
    .header('vary', 'origin')
    .code(204)
    .send();
  return true;
}

/**
 * Public reads (add-on GETs, files) and whatever a publishable key may call are open to any origin:
 * the published viewer runs on the developer's own domain. The rest of the partner surface answers
 * CORS only for CORS_ORIGINS (none by default), because a read or write key must not be used from a
 * browser page of another site.
 */
function applyCors(open: boolean, origin: string, allowedOrigins: string[], reply: { header: (k: string, v: string) => unknown }): void {
  if (allowedOrigins.includes('*') || allowedOrigins.includes(origin)) {
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'origin');
    reply.header(
      'access-control-expose-headers',
      'etag,link,x-total-count,ratelimit-limit,ratelimit-remaining,ratelimit-reset,retry-after,idempotent-replayed,x-request-id',
    );
  } else if (open) {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'etag,link,x-total-count,ratelimit-limit,ratelimit-remaining,ratelimit-reset,retry-after,x-request-id');
  }
}

/** Header names are not field names: `header x-foo must …`. */
const prefixed = (part: string, found: { at: string; problem: string } | undefined) =>
  found ? { at: `${part} ${found.at}`, problem: found.problem } : undefined;

/**
 * An answer sent before the body was read to its end (a multipart limit, a refused part, an auth
 * error) must not leave the rest of the body in the socket: Node drains an unread body by itself only
 * when nobody started reading it. A body a parser began and then let go of (busboy unpipes on its
 * limits) or still holds with a part nobody will consume stalls every later request on that keep-alive
 * connection. Once the answer is decided nothing needs the rest, so every reader is detached and the
 * body is read to its end and dropped, as Node would; the request timeout bounds a body that never ends.
 */
function drainUnreadBody(raw: IncomingMessage): void {
  if (raw.complete !== false || raw.destroyed) return;
  if (raw.socket) markAnsweredEarly(raw);
  raw.unpipe();
  raw.resume();
}
