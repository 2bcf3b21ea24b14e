import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import { type Caching, ReadCache, type Stamp, followingWrites } from '../db/read-cache.js';
import { isPublishable } from '../modules/organizations/service.js';
import { CompressibleBody, sendCompressible } from './compression.js';
import { bytesEtag, ifNoneMatchHits } from './etag.js';
import { addRouteHook } from './route-config.js';

/** Seconds a browser or CDN may reuse an answer to a publishable key, as for the public add-on reads. */
export const PUBLISHABLE_MAX_AGE_SECONDS = 30;
/** Larger answers (a list of thousands of apartments) are rebuilt each time rather than held (bytes, with their encodings). */
const CACHE_MAX_BODY = 2 * 1024 * 1024;
/**
 * Each organization's answers are kept apart, at most this many and bytes per organization: distinct
 * query strings of one key displace only each other's answers (docs/decisions.md, Caches).
 */
export const PUBLISHABLE_VARIANTS = { maxEntries: 256, maxBytes: 16 * 1024 * 1024 };

interface Answer {
  /** The masked JSON, with its encodings once made (src/http/compression.ts). */
  body: CompressibleBody;
  etag: string;
}

/**
 * Masked answers to publishable keys, by organization and URL, so a page's reads cost what an anonymous
 * add-on read costs. Kept in the process's one cache (src/db/read-cache.ts) among their organization's
 * variants: valid while the organization's write generation has not moved (every write of this process
 * moves it: on PGlite the only writer, so never stale) and, on PostgreSQL, for at most CACHE_TTL_MS
 * (writes of other instances are not notified for every table these answers read).
 */
export class PublishableCache {
  private readonly cache: ReadCache<Answer>;

  constructor(db: Database, caching: Caching) {
    this.cache = new ReadCache<Answer>({
      ...followingWrites(db, caching, true),
      // No notification covers these answers: on PostgreSQL the time-to-live bounds other instances' writes.
      trusted: true,
      weigh: (answer) => answer.body.weight,
      variants: PUBLISHABLE_VARIANTS,
    });
  }

  get stats(): { hits: number; misses: number } {
    return this.cache.stats;
  }

  /** Taken before the answer is built, and given back to `store`. */
  stamp(): Stamp {
    return this.cache.stamp();
  }

  get(organizationId: string, url: string): Answer | undefined {
    return this.cache.get(`${organizationId} ${url}`, { scope: organizationId, variants: organizationId });
  }

  /** Keeps an answer built from a state no older than `stamp`, unless its organization wrote meanwhile. */
  store(organizationId: string, url: string, answer: Answer, stamp: Stamp): void {
    if (answer.body.weight > CACHE_MAX_BODY) return;
    this.cache.set(`${organizationId} ${url}`, answer, stamp, { scope: organizationId, variants: organizationId });
  }

  /** Bytes held, with the encodings they may come to hold. */
  get size(): number {
    return this.cache.size.bytes;
  }
}

declare module 'fastify' {
  interface FastifyReply {
    /** Set by sendPublic: the answer was built masked and is kept by its route, with this ETag. */
    publicEtag: string | null;
  }
  interface FastifyRequest {
    /** Set on a publishable read: where its answer is kept, and when its read began. */
    publishableCache?: { organizationId: string; url: string; stamp: Stamp; hit: boolean };
  }
}

/**
 * What a public page must not show, removed from any object of an answer to a publishable key:
 * - an apartment (recognised by its `priceChangeHistory`): its price history, the integration's
 *   `externalId`, `source` and `lastSynchronizedAt`, and its price when `showPrice` is false or it is HIDDEN;
 * - an estate: who activated it by hand (`manuallyActivatedById`, a dashboard user);
 * - a panorama comment: its author's e-mail.
 * The fields stay, with empty values, so an answer still matches the one schema of its route.
 * Works in place on a parsed JSON document and walks every level, so an apartment embedded anywhere
 * (a building's, a list's, a feed's) is covered without each route knowing.
 */
export function publicView(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) if (item !== null && typeof item === 'object') publicView(item);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  if ('priceChangeHistory' in o) {
    o.priceChangeHistory = [];
    o.externalId = null;
    o.source = null;
    o.lastSynchronizedAt = null;
    // A HIDDEN apartment is a shape without details on the public page: its price is hidden like showPrice: false.
    if (o.showPrice === false || o.status === 'HIDDEN') o.priceCents = null;
  }
  if ('manuallyActivatedById' in o) o.manuallyActivatedById = null;
  const author = o.authorData;
  if (author !== null && typeof author === 'object' && 'email' in author) (author as Record<string, unknown>).email = null;
  for (const key in o) {
    const child = o[key];
    if (child !== null && typeof child === 'object') publicView(child);
  }
}

/**
 * Sends to a publishable key an answer its route built masked and keeps itself (the apartment lists):
 * the same headers and 304 as any publishable answer, without parsing it again or keeping a second copy.
 */
export function sendPublic(request: FastifyRequest, reply: FastifyReply, body: CompressibleBody, etag: string): FastifyReply {
  reply.publicEtag = etag;
  if (sendHeaders(request, reply, etag)) return reply.code(304).send();
  return sendCompressible(reply, body);
}

function sendHeaders(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('etag', etag);
  reply.header('cache-control', `public, max-age=${PUBLISHABLE_MAX_AGE_SECONDS}`);
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, authorization` : 'authorization');
  return ifNoneMatchHits(request.headers['if-none-match'], etag);
}

/**
 * Answers to a publishable key: masked (publicView), with an ETag of what is sent and
 * `Cache-Control: public, max-age=30`, and 304 for a matching If-None-Match. The key is meant to be
 * in every visitor's browser, so its answers are the same for everyone who holds it: they are kept
 * (PublishableCache) and served again without running the route. The lookup is a preHandler, after
 * authentication, rate limiting and query validation, so a cached answer is metered and a bad query
 * is still 400.
 */
export function installPublishable(app: FastifyInstance, db: Database, caching: Caching): PublishableCache {
  app.decorateReply('publicEtag', null);
  const cache = new PublishableCache(db, caching);
  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isPublishable(request.auth)) return;
    const organizationId = request.auth!.organizationId;
    const stamp = cache.stamp();
    const hit = cache.get(organizationId, request.url);
    request.publishableCache = { organizationId, url: request.url, stamp, hit: hit !== undefined };
    if (!hit) return;
    if (sendHeaders(request, reply, hit.etag)) return reply.code(304).send();
    return sendCompressible(reply, hit.body);
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!isPublishable(request.auth) || request.publishableCache?.hit || reply.publicEtag !== null || reply.statusCode !== 200) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const doc: unknown = JSON.parse(payload.toString());
    publicView(doc);
    const body = new CompressibleBody(Buffer.from(JSON.stringify(doc)));
    const etag = bytesEtag(body.identity);
    const slot = request.publishableCache;
    if (slot) cache.store(slot.organizationId, slot.url, { body, etag }, slot.stamp);
    if (sendHeaders(request, reply, etag)) {
      reply.code(304);
      // A 304 has no body, so no content headers (a proxy that reads Content-Type would parse nothing as JSON).
      reply.removeHeader('content-length');
      reply.removeHeader('content-type');
      return '';
    }
    // The compression hook (after this one) makes each encoding once and keeps it with the answer.
    reply.compressible = body;
    return body.identity;
  };

  // Only the routes a publishable key may call: a publishable key is 403 on every other partner
  // route, and on a public route it is an anonymous visitor (src/http/auth.ts).
  app.addHook('onRoute', (route) => {
    const config = route.config as { publishable?: boolean } | undefined;
    if (!config?.publishable) return;
    // Every public-page read answers a publishable key's matching If-None-Match with 304: said once, here.
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (response) response['304'] ??= Type.Null({ description: 'Not modified (a publishable key’s If-None-Match matched the ETag)' });
    addRouteHook(route, 'preHandler', preHandler);
    addRouteHook(route, 'onSend', onSend);
  });
  return cache;
}
