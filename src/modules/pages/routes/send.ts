import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendCompressible } from '../../../http/compression.js';
import { ifNoneMatchHits } from '../../../http/etag.js';
import type { RenderedPage } from '../service/cache.js';
import { localeOfAcceptLanguage } from '../shared/words.js';

/** Seconds a browser or CDN may use a page without asking, and serve it stale while it asks again. */
export const PAGE_CACHE_CONTROL = 'public, max-age=30, stale-while-revalidate=300';

/** A page with its headers: the policy, the CDN's surrogate key, and the cache rules of its status (a 404 in the page's or the visitor's language). */
export function sendPage(request: FastifyRequest, reply: FastifyReply, found: RenderedPage, status: number = found.status) {
  // A 404 in the published page's language (a home it does not list), else in the visitor's (Accept-Language).
  const pages = request.server.services.pages;
  const slug = (request.params as { slug?: string }).slug;
  const page = found.status === 404 ? pages.notFound((slug && pages.localeOf(slug)) || localeOfAcceptLanguage(request.headers['accept-language'])) : found;
  reply.header('content-security-policy', page.csp);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  if (page.status === 404) {
    reply.header('cache-control', 'no-store');
    return sendCompressible(reply.code(404), page.body, 'text/html; charset=utf-8');
  }
  if (page.estateId) reply.header('surrogate-key', `estate-${page.estateId} page-${page.estateId}`);
  if (page.noindex) reply.header('x-robots-tag', 'noindex, nofollow');
  if (status !== 200 || page.noindex) {
    reply.header('cache-control', 'private, no-store');
    return sendCompressible(reply.code(status), page.body, 'text/html; charset=utf-8');
  }
  reply.header('cache-control', PAGE_CACHE_CONTROL);
  reply.header('etag', page.etag);
  if (ifNoneMatchHits(request.headers['if-none-match'], page.etag)) return reply.code(304).send();
  return sendCompressible(reply, page.body, 'text/html; charset=utf-8');
}

/** A part of the page its script fetches (a frame's shapes, a home's card): not a page for a search engine; a 404 is the page's. */
export function sendPart(request: FastifyRequest, reply: FastifyReply, part: RenderedPage) {
  if (part.status !== 200) return sendPage(request, reply, part);
  reply.header('x-robots-tag', 'noindex');
  reply.header('content-security-policy', part.csp);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('cache-control', PAGE_CACHE_CONTROL);
  reply.header('etag', part.etag);
  if (ifNoneMatchHits(request.headers['if-none-match'], part.etag)) return reply.code(304).send();
  return sendCompressible(reply, part.body, 'text/html; charset=utf-8');
}
