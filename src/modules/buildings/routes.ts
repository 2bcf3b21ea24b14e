import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../http/auth.js';
import { ETAG_HEADER, IfMatchHeaders, etagOf } from '../../http/etag.js';
import { PAGE_HEADERS, setPageHeaders } from '../../http/paging.js';
import { IdParams, dropIgnored, partnerErrors } from '../../http/schemas.js';
import { BUILDING_IGNORED, BuildingSchema, CreateBuildingBody, ListBuildingsQuery, UpdateBuildingBody } from './schemas.js';

export const buildingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.buildings;
  const tags = ['Buildings'];

  app.post(
    '/building',
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Create a building in an estate',
        security: [{ apiKey: [] }],
        body: CreateBuildingBody,
        response: { 201: Type.Ref(BuildingSchema), ...partnerErrors(409, 413) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(requireAuth(request).organizationId, dropIgnored(request.body, BUILDING_IGNORED) as never)),
  );

  app.get(
    '/building',
    {
      config: { auth: 'partner', publishable: true },
      schema: {
        tags,
        summary: 'List an estate’s buildings, oldest first (estateId is required)',
        security: [{ apiKey: [] }],
        querystring: ListBuildingsQuery,
        response: { 200: Type.Array(Type.Ref(BuildingSchema), { headers: PAGE_HEADERS }), ...partnerErrors() },
      },
    },
    async (request, reply) => {
      const page = await service.list(requireAuth(request).organizationId, request.query);
      setPageHeaders(request, reply, page);
      return page.items;
    },
  );

  app.get(
    '/building/:id',
    {
      config: { auth: 'partner', publishable: true },
      schema: {
        tags,
        summary: 'Read a building',
        security: [{ apiKey: [] }],
        params: IdParams,
        response: { 200: Type.Ref(BuildingSchema, { headers: ETAG_HEADER }), ...partnerErrors() },
      },
    },
    async (request, reply) => {
      const building = await service.get(requireAuth(request).organizationId, request.params.id);
      return reply.header('etag', etagOf(building)).send(building);
    },
  );

  app.patch(
    '/building/:id',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change a building (only the fields sent)',
        security: [{ apiKey: [] }],
        params: IdParams,
        headers: IfMatchHeaders,
        body: UpdateBuildingBody,
        response: { 200: Type.Ref(BuildingSchema, { headers: ETAG_HEADER }), ...partnerErrors(409, 412, 413) },
      },
    },
    async (request, reply) => {
      const input = dropIgnored(request.body, BUILDING_IGNORED) as never;
      const building = await service.update(requireAuth(request).organizationId, request.params.id, input, request.headers['if-match']);
      return reply.header('etag', etagOf(building)).send(building);
    },
  );
};
