import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../http/auth.js';
import { ETAG_HEADER, IfMatchHeaders, etagOf } from '../../http/etag.js';
import { PAGE_HEADERS, setPageHeaders } from '../../http/paging.js';
import { IdParams, dropIgnored, partnerErrors } from '../../http/schemas.js';
import { BuildingSchema } from '../buildings/schemas.js';
import { NavigatorSchema } from '../navigators/schemas.js';
import { CreateEstateBody, ESTATE_IGNORED, EstateSchema, ListEstatesQuery, SetupBody, UpdateEstateBody } from './schemas.js';

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
      config: { auth: 'partner' },
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

  app.get(
    '/estate/:id',
    {
      config: { auth: 'partner' },
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
