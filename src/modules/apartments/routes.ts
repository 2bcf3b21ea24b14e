import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../http/auth.js';
import { IdParams, dropIgnored, partnerErrors } from '../../http/schemas.js';
import {
  APARTMENT_IGNORED,
  ApartmentList,
  ApartmentSchema,
  BulkApartmentsBody,
  CreateApartmentBody,
  ListApartmentsQuery,
  UpdateApartmentBody,
} from './schemas.js';

/** A bulk call of 5,000 fully described apartments is larger than the 1 MB JSON limit of other routes. */
const BULK_BODY_LIMIT = 8 * 1024 * 1024;

export const apartmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.apartments;
  const tags = ['Apartments'];
  const security = [{ apiKey: [] }];

  app.post(
    '/apartment',
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Create an apartment in a building',
        security,
        body: CreateApartmentBody,
        response: { 201: Type.Ref(ApartmentSchema), ...partnerErrors(409, 413) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(requireAuth(request).organizationId, dropIgnored(request.body, APARTMENT_IGNORED) as never)),
  );

  app.post(
    '/apartment/bulk',
    {
      bodyLimit: BULK_BODY_LIMIT,
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Create up to 5,000 apartments in one building, all or nothing',
        security,
        body: BulkApartmentsBody,
        response: { 201: Type.Object({ created: Type.Integer() }), ...partnerErrors(409, 413) },
      },
    },
    async (request, reply) => {
      const body = { ...request.body, apartments: request.body.apartments.map((a) => dropIgnored(a, APARTMENT_IGNORED)) };
      return reply.code(201).send(await service.bulkCreate(requireAuth(request).organizationId, body));
    },
  );

  app.get(
    '/apartment',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'List apartments (every match unless limit is given)',
        security,
        querystring: ListApartmentsQuery,
        response: { 200: ApartmentList, ...partnerErrors() },
      },
    },
    async (request) => service.list(requireAuth(request).organizationId, request.query),
  );

  app.get(
    '/apartment/:id',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Read an apartment with its building',
        security,
        params: IdParams,
        response: { 200: Type.Ref(ApartmentSchema), ...partnerErrors() },
      },
    },
    async (request) => service.get(requireAuth(request).organizationId, request.params.id),
  );

  app.patch(
    '/apartment/:id',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change an apartment (only the fields sent; assetsIds replaces the whole list)',
        security,
        params: IdParams,
        body: UpdateApartmentBody,
        response: { 200: Type.Ref(ApartmentSchema), ...partnerErrors(409, 413) },
      },
    },
    async (request) => service.update(requireAuth(request).organizationId, request.params.id, dropIgnored(request.body, APARTMENT_IGNORED) as never),
  );
};
