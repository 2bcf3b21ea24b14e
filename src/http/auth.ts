import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inWriteScope } from '../db/write-scope.js';
import { AppError } from '../errors.js';
import { type OrganizationsService, isPublishable } from '../modules/organizations/service.js';
import { asActor } from '../modules/webhooks/events.js';
import type { AuthContext, AuthMode } from './route-config.js';

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : '';
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant-time comparison: both sides are hashed first so their lengths never leak. */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('unauthorized', 'Missing or invalid API key');
  return request.auth;
}

export function installAuth(app: FastifyInstance, deps: { organizations: OrganizationsService; adminToken: string | undefined }): void {
  app.decorateRequest('auth', null);
  // The handler's writes count against the key's organization only (src/db/write-scope.ts): a write of
  // one organization never makes another's kept answers stale. Without a key (public, admin) no scope,
  // set explicitly, so none is ever inherited from elsewhere: such writes count for everyone.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      // Events of the handler's writes name the key as their actor (src/modules/webhooks/events.ts).
      const actor = request.auth ? { type: 'apiKey' as const, id: request.auth.keyId } : undefined;
      return inWriteScope(request.auth?.organizationId, () => asActor(actor, () => handler.call(this, request, reply)));
    };
  });
  app.addHook('onRequest', async (request) => {
    const mode: AuthMode = request.routeOptions.config?.auth ?? 'none';
    if (mode === 'none') return;
    const token = bearer(request);

    if (mode === 'admin') {
      if (!deps.adminToken) throw new AppError('notFound', 'The admin surface is disabled; set ADMIN_TOKEN to enable it');
      if (token && deps.adminToken && safeEqual(token, deps.adminToken)) return;
      if (token && (await deps.organizations.authenticate(token))) {
        throw new AppError('forbidden', 'This endpoint is not on the partner surface');
      }
      throw new AppError('unauthorized', 'Missing or invalid operator token');
    }

    if (token === undefined) {
      if (mode === 'public') return;
      throw new AppError('unauthorized', 'Missing API key; send Authorization: Bearer <key>');
    }
    const auth = token ? await deps.organizations.authenticate(token) : null;
    if (!auth) throw new AppError('unauthorized', 'Invalid, expired or revoked API key');
    // When the key was last used (the dashboard's keys screen): at most one write a minute per key, not awaited.
    deps.organizations.keyUse.seen(auth.keyId);
    if (isPublishable(auth)) {
      // On a public route a publishable key is an anonymous visitor: the public view, never the owner's.
      if (mode === 'public') return;
      request.auth = auth;
      const config = request.routeOptions.config;
      const readable = (config?.publishable === true || config?.scope === 'any') && (request.method === 'GET' || request.method === 'HEAD');
      if (!readable) throw new AppError('forbidden', 'A publishable key reads only what a public page shows; this route needs a read or write key');
      return;
    }
    request.auth = auth;
    if (mode === 'partner') {
      const needed = request.routeOptions.config?.scope ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
      if (needed !== 'any' && !auth.scopes.includes(needed)) throw new AppError('forbidden', `This API key lacks the ${needed} scope`);
    }
  });
}
