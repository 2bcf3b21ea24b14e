import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../../errors.js';
import { isUuid } from '../../../ids.js';
import { siteOf } from '../../domains/site.js';
import { pageErrorNotice } from '../notices.js';
import { SlugParams } from '../schemas.js';
import { filterOf } from '../shared/filter.js';
import { frameOfQuery } from '../shared/frames.js';
import { FORM_BODY_LIMIT, MESSAGES, inquiryKeyOf, readForm } from './form.js';
import { PAGE_CACHE_CONTROL, sendPage, sendPart } from './send.js';

/** The filter in the address (shared/filter.ts: the rule the browser applies too). */
const filterOfQuery = (query: Record<string, unknown>) => filterOf((k) => (typeof query[k] === 'string' ? (query[k] as string) : undefined));

/** GET /p/{slug}, its homes' pages and cards, embed.json, POST /p/{slug}/inquiry: the public web, outside the JSON API. */
export const pageSiteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.pages;
  const notice = pageErrorNotice((slug) => service.localeOf(slug));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) =>
    done(null, new URLSearchParams(body as string)),
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
      // One frame's shapes, for the page's script (components/navigator/client.ts): a part, not a page.
      if (query.part === 'frame') return sendPart(request, reply, await service.frame(request.params.slug, frameOfQuery(query.frame), siteOf(request)));
      const page = await service.page(request.params.slug, {
        preview,
        filter: filterOfQuery(query),
        view: typeof query.view === 'string' ? query.view : undefined,
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
      if (part === 'card') return sendPart(request, reply, page);
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
