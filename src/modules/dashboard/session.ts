import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inWriteScope } from '../../db/write-scope.js';
import { AppError } from '../../errors.js';
import { safeEqual } from '../../http/auth.js';
import { asActor } from '../webhooks/events.js';
import { type DashboardRole, type Membership, SESSION_ABSOLUTE_SECONDS, type Session } from './people/service.js';

export const SESSION_COOKIE = 'pps_session';
export const CSRF_FIELD = '_csrf';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardSession: Session | null;
  }
  interface FastifyContextConfig {
    /** A dashboard route anyone may post to without a session (sign-in, the invitation page): Origin is still checked. */
    dashboardPublic?: boolean;
    /** A streamed multipart form (the asset upload): the handler checks its CSRF field (`checkCsrf`) before reading a file. */
    dashboardCsrfInHandler?: boolean;
  }
}

/** The signed-in person in one organization: what a screen needs to render and to authorise. */
export interface OrgContext {
  session: Session;
  memberships: Membership[];
  org: Membership;
  /** `/dashboard/o/<organizationId>`: the prefix of this organization's screens. */
  base: string;
}

const RANK: Record<DashboardRole, number> = { viewer: 0, editor: 1, admin: 2 };

/**
 * Sessions and CSRF for the routes under /dashboard only (the API's key auth is untouched):
 * the session cookie is read on every request; a POST must come from this service's own origin
 * (Origin, else Referer) and, with a session, carry the session's CSRF token; 403 otherwise, and
 * nothing is read further or written.
 */
export async function installSession(app: FastifyInstance): Promise<void> {
  const { config } = app.deps;
  await app.register(cookie);
  const publicOrigin = new URL(config.publicUrl).origin;
  app.decorateRequest('dashboardSession', null);

  // After the service's own onSend (which says no-referrer everywhere): with no-referrer a browser sends
  // `Origin: null` on a form post, and the Origin check below could not tell our forms from a sandboxed
  // frame's. same-origin sends the origin to ourselves only. The dashboard is never read cross-origin.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('referrer-policy', 'same-origin');
    reply.removeHeader('access-control-allow-origin');
    reply.removeHeader('access-control-allow-methods');
    reply.removeHeader('access-control-allow-headers');
    return payload;
  });

  app.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) request.dashboardSession = await app.services.people.session(token);
  });

  app.addHook('preHandler', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
    const own = `${request.protocol}://${request.host}`;
    if (!origin || (origin !== publicOrigin && origin !== own)) {
      throw new AppError('forbidden', 'This form was sent from another site.');
    }
    if (request.routeOptions.config?.dashboardPublic) return;
    const session = request.dashboardSession;
    if (!session) throw new AppError('unauthorized', 'Sign in first.');
    if (request.routeOptions.config?.dashboardCsrfInHandler) return;
    // A urlencoded form, or a multipart one (the CSV import: its fields as an object), or a script's header.
    const body = request.body;
    const field =
      body instanceof URLSearchParams ? body.get(CSRF_FIELD) : body && typeof body === 'object' ? (body as Record<string, unknown>)[CSRF_FIELD] : undefined;
    const header = request.headers['x-csrf-token'];
    checkCsrf(session, typeof field === 'string' ? field : typeof header === 'string' ? header : '');
  });
}

/** 403 unless `given` is the session's CSRF token. */
export function checkCsrf(session: Session, given: string | undefined): void {
  if (!given || !safeEqual(given, session.csrf)) throw new AppError('forbidden', 'This form has expired. Reload the page and send it again.');
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, path /dashboard, Secure when PUBLIC_URL is https. */
export function setSessionCookie(app: FastifyInstance, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/dashboard',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.deps.config.publicUrl.startsWith('https:'),
    maxAge: SESSION_ABSOLUTE_SECONDS,
  });
}

export function clearSessionCookie(app: FastifyInstance, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/dashboard', httpOnly: true, sameSite: 'lax', secure: app.deps.config.publicUrl.startsWith('https:') });
}

/** The session, or a redirect to sign-in for a GET (401 for anything else). */
export function requireSession(request: FastifyRequest): Session {
  if (!request.dashboardSession) throw new AppError('unauthorized', 'Sign in first.');
  return request.dashboardSession;
}

/**
 * The organization of `/dashboard/o/:orgId/…` when the signed-in person is a member of it; 404 for any
 * other (another organization's screens read as not existing, as in the API).
 */
export async function requireOrg(app: FastifyInstance, request: FastifyRequest, minimum: DashboardRole = 'viewer'): Promise<OrgContext> {
  const session = requireSession(request);
  const orgId = String((request.params as { orgId?: unknown }).orgId ?? '').toLowerCase();
  const memberships = await app.services.people.memberships(session.user.id);
  const org = memberships.find((m) => m.organizationId === orgId);
  if (!org) throw new AppError('notFound', `Organization with id ${orgId} not found`);
  if (RANK[org.role] < RANK[minimum]) throw new AppError('forbidden', `This needs the ${minimum} role; you are ${article(org.role)} ${org.role}.`);
  return { session, memberships, org, base: `/dashboard/o/${org.organizationId}` };
}

const article = (role: string) => (role === 'admin' || role === 'editor' ? 'an' : 'a');

export const hasRole = (ctx: OrgContext, minimum: DashboardRole) => RANK[ctx.org.role] >= RANK[minimum];

/**
 * Runs a dashboard write: its cache writes count against this organization only and its events name
 * the user as `actor`, exactly as an API key's write does (src/http/auth.ts).
 */
export function asUser<T>(ctx: OrgContext, fn: () => T): T {
  return inWriteScope(ctx.org.organizationId, () => asActor({ type: 'user', id: ctx.session.user.id }, fn));
}
