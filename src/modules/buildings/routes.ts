import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../http/auth.js';
import { IdParams, dropIgnored, partnerErrors } from '../../http/schemas.js';
import { BUILDING_IGNORED, BuildingSchema, CreateBuildingBody, UpdateBuildingBody } from './schemas.js';

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
    '/building/:id',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Read a building',
        security: [{ apiKey: [] }],
        params: IdParams,
        response: { 200: Type.Ref(BuildingSchema), ...partnerErrors() },
      },
    },
    async (request) => service.get(requireAuth(request).organizationId, request.params.id),
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
        body: UpdateBuildingBody,
        response: { 200: Type.Ref(BuildingSchema), ...partnerErrors(409, 413) },
      },
    },
    async (request) => service.update(requireAuth(request).organizationId, request.params.id, dropIgnored(request.body, BUILDING_IGNORED) as never),
  );
};
