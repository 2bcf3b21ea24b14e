import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPublishable } from '../modules/organizations/service.js';

/** Seconds a browser or CDN may reuse an answer to a publishable key, as for the public add-on reads. */
export const PUBLISHABLE_MAX_AGE_SECONDS = 30;

/**
 * What a public page must not show, removed from any object of an answer to a publishable key:
 * - an apartment (recognised by its `priceChangeHistory`): its price history, the integration's
 *   `externalId`, `source` and `lastSynchronizedAt`, and its price when `showPrice` is false;
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
    if (o.showPrice === false) o.priceCents = null;
  }
  if ('manuallyActivatedById' in o) o.manuallyActivatedById = null;
  const author = o.authorData;
  if (author !== null && typeof author === 'object' && 'email' in author) (author as Record<string, unknown>).email = null;
  for (const key in o) {
    const child = o[key];
    if (child !== null && typeof child === 'object') publicView(child);
  }
}

const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

const matches = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined && (ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag));

/**
 * Answers to a publishable key: masked (publicView), with an ETag of what is sent and
 * `Cache-Control: public, max-age=30`, and 304 for a matching If-None-Match. The key is meant to be
 * in every visitor's browser, so its answers are the same for everyone who holds it.
 */
export function installPublishable(app: FastifyInstance): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!isPublishable(request.auth) || reply.statusCode !== 200) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const doc: unknown = JSON.parse(payload.toString());
    publicView(doc);
    const body = JSON.stringify(doc);
    const etag = etagOf(body);
    reply.header('etag', etag);
    reply.header('cache-control', `public, max-age=${PUBLISHABLE_MAX_AGE_SECONDS}`);
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${String(vary)}, authorization` : 'authorization');
    if (matches(request.headers['if-none-match'], etag)) {
      reply.code(304);
      reply.removeHeader('content-length');
      return '';
    }
    return body;
  });
}
