import type { FastifyRequest, RouteOptions } from 'fastify';
import type { ApiKeyScope } from '../modules/organizations/service.js';

/**
 * How a route authenticates, declared in its `config.auth`:
 * - partner: an organization API key is required (401 without); its scope must allow the method (403).
 * - public: no key needed; a valid key is still read so the owner can see more (add-on reads).
 * - admin: the operator token is required; an organization key is 403, anything else 401.
 * - none: no credentials are looked at (health, docs, files).
 */
export type AuthMode = 'partner' | 'public' | 'admin' | 'none';

/** An error of a browser-facing route as HTML: the body and the headers it needs (its CSP, no-store). */
export interface HtmlErrorPage {
  body: string;
  headers: Record<string, string>;
}

export interface AuthContext {
  organizationId: string;
  keyId: string;
  scopes: ApiKeyScope[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /**
     * Scope the partner key needs; defaults to read for GET/HEAD and write otherwise. `any`: every valid
     * key, publishable ones included (what a key may do: GET /api-keys/current); never cached or masked.
     */
    scope?: ApiKeyScope | 'any';
    /**
     * A GET a publishable key may call: it reads only what a public page shows, and the answer is
     * masked and made cacheable for such a key (src/http/publishable.ts). Every other partner route
     * answers a publishable key 403.
     */
    publishable?: boolean;
    /** A creating POST: honours Idempotency-Key. */
    idempotent?: boolean;
    /**
     * With `idempotent`: the key of a request that carries none in a header (a browser's form post: its
     * hidden field, else one derived from what it sends); undefined: no key.
     */
    idempotencyKey?: (request: FastifyRequest) => string | undefined;
    /**
     * Which rate-limit budget the route draws from; defaults by auth mode. A route with `auth: 'none'`
     * is metered only when it names one (the public page: `anonymous`, its form: `inquiry`).
     */
    rateLimitClass?: 'inquiry' | 'anonymous';
    /**
     * The route answers a browser, not an API client: its errors (a 429 from the rate limiter, a 503 in
     * an outage, a body it cannot read) are this HTML page instead of the JSON error body. Logging,
     * status and Retry-After are the same as every route's (src/http/error-handler.ts).
     */
    htmlError?: (error: { statusCode: number; retryAfterSeconds: number | undefined }, request: FastifyRequest) => HtmlErrorPage;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/**
 * Adds a hook to one route from an `onRoute` hook, after the route's own hooks of that name: a
 * concern that only some routes have (idempotency, publishable answers) costs the others nothing.
 */
export function addRouteHook(route: RouteOptions, name: 'preHandler' | 'onSend' | 'onResponse' | 'onRequestAbort', hook: unknown): void {
  const hooks = route as unknown as Record<string, unknown>;
  const existing = hooks[name];
  hooks[name] = existing === undefined ? [hook] : [...[existing].flat(), hook];
}
