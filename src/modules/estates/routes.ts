import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../http/auth.js';
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
        response: { 200: Type.Array(EstateSchema), ...partnerErrors() },
      },
    },
    async (request) => service.list(requireAuth(request).organizationId, request.query),
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
        response: { 200: Type.Ref(EstateSchema), ...partnerErrors() },
      },
    },
    async (request) => service.get(requireAuth(request).organizationId, request.params.id),
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
        body: UpdateEstateBody,
        response: { 200: Type.Ref(EstateSchema), ...partnerErrors(409, 413) },
      },
    },
    async (request) => service.update(requireAuth(request).organizationId, request.params.id, dropIgnored(request.body, ESTATE_IGNORED) as never),
  );
};
