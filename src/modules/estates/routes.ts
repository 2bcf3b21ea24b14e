import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireAuth } from '../../http/auth.js';
import { ETAG_HEADER, IfMatchHeaders, etagOf, ifNoneMatchHits } from '../../http/etag.js';
import { PAGE_HEADERS, setPageHeaders } from '../../http/paging.js';
import { PUBLISHABLE_MAX_AGE_SECONDS } from '../../http/publishable.js';
import { IdParams, dropIgnored, errorResponses, partnerErrors } from '../../http/schemas.js';
import { BuildingSchema } from '../buildings/schemas.js';
import { NavigatorSchema } from '../navigators/schemas.js';
import { CreateEstateBody, ESTATE_IGNORED, EstateBySlug, EstateSchema, ListEstatesQuery, SetupBody, SlugParams, UpdateEstateBody } from './schemas.js';

export const estateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.estates;
  const tags = ['Estates'];
  const security = [{ apiKey: [] }];

  app.post(
    '/estate',
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Create an estate (project)',
        security,
        body: CreateEstateBody,
        response: { 201: Type.Ref(EstateSchema), ...partnerErrors(409, 413) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(requireAuth(request).organizationId, dropIgnored(request.body, ESTATE_IGNORED) as never)),
  );

  app.post(
    '/estate/setup',
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Quick setup: an estate, its first building and a navigator in one call',
        security,
        body: SetupBody,
        response: {
          201: Type.Object({ estate: Type.Ref(EstateSchema), building: Type.Ref(BuildingSchema), navigator: Type.Ref(NavigatorSchema) }),
          ...partnerErrors(409, 413),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await service.setup(requireAuth(request).organizationId, request.body)),
  );

  app.get(
    '/estate',
    {
      config: { auth: 'partner', publishable: true },
      schema: {
        tags,
        summary: 'List the organization’s estates, newest first',
        security,
        querystring: ListEstatesQuery,
        response: { 200: Type.Array(EstateSchema, { headers: PAGE_HEADERS }), ...partnerErrors() },
      },
    },
    async (request, reply) => {
      const page = await service.list(requireAuth(request).organizationId, request.query);
      setPageHeaders(request, reply, page);
      return page.items;
    },
  );

  // The slug lookup lives under a path of its own: `/estates/{slug}/…` shared a prefix with the add-on
  // paths (`/estates/{estateId}/gallery`), so a document-driven router could not tell an estate whose
  // slug is `gallery` from the gallery of estate `by-slug`. The old path keeps answering, hidden from
  // the document, with Deprecation and a Link to its successor (docs/decisions.md).
  const bySlug = async (request: FastifyRequest, reply: FastifyReply) => {
    const found = await service.bySlug((request.params as { slug: string }).slug);
    const etag = etagOf(found);
    reply.header('cache-control', `public, max-age=${PUBLISHABLE_MAX_AGE_SECONDS}`).header('etag', etag);
    if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.send(found);
  };
  const bySlugSchema = {
    tags,
    summary: "Find an estate by its slug (no key needed): the public page's way to its add-ons; If-None-Match answers 304",
    security: [{}, { apiKey: [] }] as Array<Record<string, string[]>>,
    params: SlugParams,
    response: { 200: EstateBySlug, 304: Type.Null({ description: 'Not modified (If-None-Match matched the ETag)' }), ...errorResponses(400, 401, 404, 429) },
  };
  app.get('/estate-slugs/:slug', { config: { auth: 'public' }, schema: bySlugSchema }, bySlug);
  app.get('/estates/by-slug/:slug', { config: { auth: 'public' }, schema: { ...bySlugSchema, hide: true } }, async (request, reply) => {
    reply
      .header('deprecation', 'true')
      .header('link', `</api/v1/estate-slugs/${encodeURIComponent((request.params as { slug: string }).slug)}>; rel="successor-version"`);
    return bySlug(request, reply);
  });

  app.get(
    '/estate/:id',
    {
      config: { auth: 'partner', publishable: true },
      schema: {
        tags,
        summary: 'Read an estate with its buildings and organization',
        security,
        params: IdParams,
        response: { 200: Type.Ref(EstateSchema, { headers: ETAG_HEADER }), ...partnerErrors() },
      },
    },
    async (request, reply) => {
      const estate = await service.get(requireAuth(request).organizationId, request.params.id);
      return reply.header('etag', etagOf(estate)).send(estate);
    },
  );

  app.patch(
    '/estate/:id',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change an estate (only the fields sent)',
        security,
        params: IdParams,
        headers: IfMatchHeaders,
        body: UpdateEstateBody,
        response: { 200: Type.Ref(EstateSchema, { headers: ETAG_HEADER }), ...partnerErrors(409, 412, 413) },
      },
    },
    async (request, reply) => {
      const input = dropIgnored(request.body, ESTATE_IGNORED) as never;
      const estate = await service.update(requireAuth(request).organizationId, request.params.id, input, request.headers['if-match']);
      return reply.header('etag', etagOf(estate)).send(estate);
    },
  );
};
