import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { requireAuth } from '../../http/auth.js';
import { sendCompressible } from '../../http/compression.js';
import { ETAG_HEADER, NOT_MODIFIED, etagOf, ifNoneMatchHits } from '../../http/etag.js';
import { SINGLE_LINE, SINGLE_LINE_NAME, errorResponses, partnerErrors } from '../../http/schemas.js';
import { isUuid } from '../../ids.js';
import { siteOf } from '../domains/site.js';
import { SubmitInquiryBody } from '../inquiries/schemas.js';
import { ASSET_PREFIX, loadStylesheet, pageAsset } from './assets.js';
import { pageErrorNotice } from './notices.js';
import { HONEYPOT } from './render/inquiry-form.js';
import type { FormState } from './render/types.js';
import { PageEstateParams, PageSettingsSchema, PreviewLinkSchema, PutPageBody, SlugParams } from './schemas.js';
import type { RenderedPage } from './service.js';
import { filterOf } from './shared/filter.js';
import { frameOfQuery } from './shared/frames.js';
import { type Key, localeOfAcceptLanguage } from './shared/words.js';

/** Seconds a browser or CDN may use a page without asking, and serve it stale while it asks again. */
export const PAGE_CACHE_CONTROL = 'public, max-age=30, stale-while-revalidate=300';
/** A urlencoded inquiry is a few fields: far less than the JSON limit. */
const FORM_BODY_LIMIT = 64 * 1024;

const tags = ['Public page'];
const security = [{ apiKey: [] }];

/** GET /api/v1/estates/{estateId}/page, PUT it, and the preview link (inside the /api/v1 prefix). */
export const pageApiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.pages;
  app.get(
    '/estates/:estateId/page',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Read the public page’s settings (public; while the page is off only the owner sees them, others the defaults)',
        params: PageEstateParams,
        response: { 200: Type.Ref(PageSettingsSchema, { headers: ETAG_HEADER }), 304: NOT_MODIFIED, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const { settings, owner } = await service.settings(request.params.estateId, request.auth?.organizationId);
      const etag = etagOf(settings);
      reply.header('etag', etag);
      reply.header('vary', 'authorization');
      reply.header('cache-control', owner ? 'private, no-store' : 'public, max-age=30');
      // No body and so no content headers (a proxy that reads Content-Type would parse nothing as JSON).
      if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return (reply as FastifyReply).code(304).send();
      return settings;
    },
  );

  app.put(
    '/estates/:estateId/page',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Configure the public page: on or off, the navigator, sections, embed origins, locale',
        security,
        params: PageEstateParams,
        body: PutPageBody,
        response: { 200: Type.Ref(PageSettingsSchema), ...partnerErrors(413) },
      },
    },
    async (request) => service.put(requireAuth(request).organizationId, request.params.estateId, request.body),
  );

  app.post(
    '/estates/:estateId/page/preview',
    {
      // A retried create with the same Idempotency-Key gets the same link, as every creating POST does.
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'A signed link (24 hours) that renders the page even while it is off, marked noindex',
        security,
        params: PageEstateParams,
        response: { 201: PreviewLinkSchema, ...partnerErrors() },
      },
    },
    async (request, reply) => reply.code(201).send(await service.preview(requireAuth(request).organizationId, request.params.estateId)),
  );

  app.delete(
    '/estates/:estateId/page/previews',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Revoke every preview link of the estate issued so far (links issued after this call work)',
        security,
        params: PageEstateParams,
        response: { 204: Type.Null({ description: 'Every earlier preview link now answers 404' }), ...partnerErrors() },
      },
    },
    async (request, reply) => {
      await service.revokePreviews(requireAuth(request).organizationId, request.params.estateId);
      return reply.code(204).send(null);
    },
  );
};

/** The filter in the address (shared/filter.ts: the rule the browser applies too). */
const filterOfQuery = (query: Record<string, unknown>) => filterOf((k) => (typeof query[k] === 'string' ? (query[k] as string) : undefined));

function sendPage(request: FastifyRequest, reply: FastifyReply, found: RenderedPage, status: number = found.status) {
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

/** A part of the page its script fetches (a frame's shapes): not a page for a search engine; a 404 is the page's. */
function sendPart(request: FastifyRequest, reply: FastifyReply, part: RenderedPage) {
  if (part.status !== 200) return sendPage(request, reply, part);
  reply.header('x-robots-tag', 'noindex');
  reply.header('content-security-policy', part.csp);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('cache-control', PAGE_CACHE_CONTROL);
  reply.header('etag', part.etag);
  if (ifNoneMatchHits(request.headers['if-none-match'], part.etag)) return reply.code(304).send();
  return sendCompressible(reply, part.body, 'text/html; charset=utf-8');
}

const formAjv = addFormats.default(new Ajv.default({ allErrors: true, strict: false, coerceTypes: false }));
const checkInquiry = formAjv.compile(SubmitInquiryBody);

/** Each field's error, as its message's key (shared/words-notices.ts): the page writes it in its language. */
const MESSAGES: Record<string, Key> = {
  name: 'errName',
  email: 'errEmail',
  phoneNumber: 'errPhone',
  info: 'errInfo',
  apartmentIds: 'errApartments',
};

/** A name or e-mail address with a line break or another control character (sent by a script, not typed). */
const ONE_LINE: Record<string, Key> = {
  name: 'errNameLine',
  email: 'errEmailLine',
};
const isSingleLineRule = (params: unknown) => {
  const { pattern } = params as { pattern?: string };
  return pattern === SINGLE_LINE || pattern === SINGLE_LINE_NAME;
};

/** The urlencoded form as the public inquiry's fields, and its errors by field (after the same schema as the API). */
function readForm(body: URLSearchParams): { input: Record<string, unknown>; state: FormState; spam: boolean } {
  const one = (k: string) => (body.get(k) ?? '').slice(0, 25_000);
  const values = {
    name: one('name').trim(),
    email: one('email').trim(),
    phoneNumber: one('phoneNumber').trim(),
    info: one('info'),
    apartmentIds: body
      .getAll('apartmentIds')
      .map((id) => id.trim())
      .filter((id) => id !== '')
      .slice(0, 101),
  };
  const input: Record<string, unknown> = { name: values.name, email: values.email };
  if (values.phoneNumber) input.phoneNumber = values.phoneNumber;
  if (values.info.trim()) input.info = values.info;
  if (values.apartmentIds.length > 0) input.apartmentIds = values.apartmentIds;
  const errors: FormState['errors'] = {};
  if (!values.name) errors.name = MESSAGES.name;
  if (!checkInquiry(input)) {
    for (const e of checkInquiry.errors ?? []) {
      const field = (e.instancePath.split('/')[1] ?? (e.params as { missingProperty?: string }).missingProperty ?? 'form') as keyof FormState['errors'];
      if (!(field in MESSAGES)) continue;
      // Saying what is wrong with a line break beats the field's general message.
      if (isSingleLineRule(e.params)) errors[field] = ONE_LINE[field] ?? MESSAGES[field];
      else errors[field] ??= MESSAGES[field];
    }
  }
  return { input, state: { values, errors }, spam: (body.get(HONEYPOT) ?? '') !== '' };
}

/** The inline form's one-time key (a hidden field the browser code adds and fills: src/modules/pages/client/form.ts). */
export const INQUIRY_KEY_FIELD = 'inquiryKey';
const ONE_TIME_KEY = /^[A-Za-z0-9-]{16,64}$/;

/**
 * The Idempotency-Key of a form post (src/http/idempotency.ts): the browser code's one-time key, so a
 * form sent again after a lost answer stores one inquiry; without JavaScript (the kept page cannot carry
 * a key per visitor) the hash of the page and what the form says, so the same form sent twice (a double
 * click, a reload of the post) is recognised as one. The scope is the client's IP, as for the API.
 */
function inquiryKeyOf(request: FastifyRequest): string | undefined {
  const body = request.body instanceof URLSearchParams ? request.body : undefined;
  if (!body) return undefined;
  const given = body.get(INQUIRY_KEY_FIELD) ?? '';
  if (ONE_TIME_KEY.test(given)) return `page-form:${given}`;
  const slug = String((request.params as { slug?: unknown }).slug ?? '').toLowerCase();
  const fields = [...body].filter(([name]) => name !== INQUIRY_KEY_FIELD && name !== HONEYPOT).map(([name, value]) => [name, value.trim()]);
  fields.sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  return `page-form-content:${createHash('sha256')
    .update(JSON.stringify([slug, fields]))
    .digest('hex')}`;
}

/** GET /p/{slug}, POST /p/{slug}/inquiry and the hashed files: the public web, outside the JSON API. */
export const pageSiteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.pages;
  const notice = pageErrorNotice((slug) => service.localeOf(slug));
  loadStylesheet();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) =>
    done(null, new URLSearchParams(body as string)),
  );

  app.get(
    `${ASSET_PREFIX}:file`,
    { config: { auth: 'none' }, schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      const asset = pageAsset(request.params.file);
      if (!asset) throw new AppError('notFound', 'No such file');
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('etag', asset.etag);
      reply.header('x-content-type-options', 'nosniff');
      if (ifNoneMatchHits(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
      return sendCompressible(reply, asset.body, asset.type);
    },
  );

  app.get(
    '/p/:slug',
    {
      config: { auth: 'none', rateLimitClass: 'anonymous', htmlError: notice },
      schema: { hide: true, params: SlugParams, querystring: Type.Record(Type.String(), Type.Unknown()) },
    },
    async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const preview = typeof query.preview === 'string' ? query.preview : undefined;
      const apartment = typeof query.apartment === 'string' && isUuid(query.apartment) ? query.apartment.toLowerCase() : null;
      const sent = query.sent === '1';
      // One frame's shapes, for the page's script (client/navigator.ts): a part, not a page.
      if (query.part === 'frame') return sendPart(request, reply, await service.frame(request.params.slug, frameOfQuery(query.frame), siteOf(request)));
      const page = await service.page(request.params.slug, {
        preview,
        filter: filterOfQuery(query),
        askAbout: apartment,
        form: sent ? { values: {}, errors: {}, sent: true } : undefined,
        site: siteOf(request),
        frame: frameOfQuery(query.frame),
      });
      return sendPage(request, reply, page);
    },
  );

  // embed.js on a host page asks whether that host may frame the page (frame-ancestors refuses silently).
  app.get(
    '/p/:slug/embed.json',
    { config: { auth: 'none', rateLimitClass: 'anonymous' }, schema: { hide: true, params: SlugParams } },
    async (request, reply) => {
      const origins = await service.embedOrigins(request.params.slug, siteOf(request));
      if (origins === undefined) throw new AppError('notFound', 'No published page');
      reply.header('access-control-allow-origin', '*');
      reply.header('cache-control', PAGE_CACHE_CONTROL);
      return { embedOrigins: origins };
    },
  );

  app.get(
    '/p/:slug/homes/:apartmentId',
    {
      config: { auth: 'none', rateLimitClass: 'anonymous', htmlError: notice },
      schema: {
        hide: true,
        params: Type.Object({ slug: SlugParams.properties.slug, apartmentId: Type.String({ maxLength: 100 }) }),
        querystring: Type.Record(Type.String(), Type.Unknown()),
      },
    },
    async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const part = query.part === 'card' ? 'card' : 'page';
      const page = await service.home(request.params.slug, request.params.apartmentId, part, siteOf(request));
      // The card alone is what the page's script opens in place: not a page of its own for a search engine.
      if (part === 'card' && page.status === 200) {
        reply.header('x-robots-tag', 'noindex');
        reply.header('content-security-policy', page.csp);
        reply.header('x-content-type-options', 'nosniff');
        reply.header('cache-control', PAGE_CACHE_CONTROL);
        reply.header('etag', page.etag);
        if (ifNoneMatchHits(request.headers['if-none-match'], page.etag)) return reply.code(304).send();
        return sendCompressible(reply, page.body, 'text/html; charset=utf-8');
      }
      return sendPage(request, reply, page);
    },
  );

  app.post(
    '/p/:slug/inquiry',
    {
      // Idempotent by the form's one-time key: a second post of the same form replays the first answer.
      config: { auth: 'none', rateLimitClass: 'inquiry', htmlError: notice, idempotent: true, idempotencyKey: inquiryKeyOf },
      schema: { hide: true, params: SlugParams },
    },
    async (request, reply) => {
      const slug = request.params.slug;
      const body = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
      const { input, state, spam } = readForm(body);
      const target = await service.inquiryTarget(slug);
      const site = siteOf(request);
      if (!target || (site && site.estateId !== target.estateId)) return sendPage(request, reply, service.notFound());
      const thanks = `${site ? '/' : `/p/${target.slug}`}?sent=1#inquiry`;
      // A filled honeypot is answered as a success and stored nowhere: a bot learns nothing.
      if (spam) return reply.code(303).header('location', thanks).send('');
      const about = state.values.apartmentIds?.[0] && isUuid(state.values.apartmentIds[0]) ? state.values.apartmentIds[0].toLowerCase() : null;
      if (Object.keys(state.errors).length === 0) {
        try {
          await app.services.inquiries.submit(target.estateId, input as never);
          return reply.code(303).header('location', thanks).send('');
        } catch (err) {
          if (!(err instanceof AppError) || err.statusCode !== 422) throw err;
          state.errors.apartmentIds = MESSAGES.apartmentIds;
        }
      }
      const page = await service.page(slug, { filter: {}, askAbout: about, form: state, site });
      return sendPage(request, reply, page, page.status === 200 ? 422 : 404);
    },
  );
};
