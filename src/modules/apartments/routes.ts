import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../http/auth.js';
import { COMPRESSION_HEADERS, sendCompressible } from '../../http/compression.js';
import { ETAG_HEADER, IfMatchHeaders, NOT_MODIFIED, etagOf, ifNoneMatchHits } from '../../http/etag.js';
import { PAGE_HEADERS, setPageHeaders } from '../../http/paging.js';
import { sendPublic } from '../../http/publishable.js';
import { ChangesQuery, IdParams, dropIgnored, partnerErrors } from '../../http/schemas.js';
import { isPublishable } from '../organizations/service.js';
import {
  APARTMENT_IGNORED,
  ApartmentChanges,
  ApartmentList,
  ApartmentSchema,
  BulkApartmentsBody,
  BulkUpdateBody,
  CreateApartmentBody,
  ListApartmentsQuery,
  UpdateApartmentBody,
  UpsertAnswer,
  UpsertApartmentsBody,
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
        response: {
          201: Type.Object({
            created: Type.Integer({ description: 'Apartments created' }),
            ids: Type.Array(Type.String(), { description: 'Ids of the created apartments, in the order of the request’s apartments' }),
          }),
          ...partnerErrors(409, 413),
        },
      },
    },
    async (request, reply) => {
      const body = { ...request.body, apartments: request.body.apartments.map((a) => dropIgnored(a, APARTMENT_IGNORED)) };
      return reply.code(201).send(await service.bulkCreate(requireAuth(request).organizationId, body));
    },
  );

  app.post(
    '/apartment/upsert',
    {
      bodyLimit: BULK_BODY_LIMIT,
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Create or change up to 5,000 apartments by externalId, all or nothing (sync from another system)',
        security,
        body: UpsertApartmentsBody,
        response: { 200: UpsertAnswer, ...partnerErrors(409, 413) },
      },
    },
    async (request) => {
      const body = { ...request.body, apartments: request.body.apartments.map((a) => dropIgnored(a, APARTMENT_IGNORED)) };
      return service.upsert(requireAuth(request).organizationId, body);
    },
  );

  app.patch(
    '/apartment/bulk',
    {
      bodyLimit: BULK_BODY_LIMIT,
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change up to 5,000 apartments, each named by id or externalId, all or nothing',
        security,
        body: BulkUpdateBody,
        response: { 200: Type.Object({ updated: Type.Integer() }), ...partnerErrors(409, 413) },
      },
    },
    async (request) => {
      const ignored = APARTMENT_IGNORED.filter((f) => f !== 'id');
      return service.bulkUpdate(requireAuth(request).organizationId, { apartments: request.body.apartments.map((a) => dropIgnored(a, ignored)) });
    },
  );

  app.get(
    '/apartment/changes',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Apartments created or changed after a cursor, oldest change first (follow nextCursor; never misses a change)',
        security,
        querystring: ChangesQuery,
        response: { 200: ApartmentChanges, ...partnerErrors() },
      },
    },
    async (request) => service.changes(requireAuth(request).organizationId, request.query),
  );

  app.get(
    '/apartment',
    {
      config: { auth: 'partner', publishable: true },
      schema: {
        tags,
        summary: 'List apartments (every match unless limit is given), filtered and sorted',
        security,
        querystring: ListApartmentsQuery,
        response: {
          200: { ...ApartmentList, headers: { ...PAGE_HEADERS, ...ETAG_HEADER, ...COMPRESSION_HEADERS } },
          304: NOT_MODIFIED,
          ...partnerErrors(),
        },
      },
    },
    async (request, reply) => {
      const publishable = isPublishable(request.auth);
      const listed = await service.lists.list(requireAuth(request).organizationId, request.query, publishable);
      setPageHeaders(request, reply, listed);
      // Built masked by the statement; public cache headers and 304 as every publishable answer.
      if (publishable) return sendPublic(request, reply, listed.body, listed.etag);
      reply.header('etag', listed.etag);
      if (ifNoneMatchHits(request.headers['if-none-match'], listed.etag)) return reply.code(304).send(null);
      return sendCompressible(reply, listed.body);
    },
  );

  app.get(
    '/apartment/:id',
    {
      config: { auth: 'partner', publishable: true },
      schema: {
        tags,
        summary: 'Read an apartment with its building',
        security,
        params: IdParams,
        response: { 200: Type.Ref(ApartmentSchema, { headers: ETAG_HEADER }), ...partnerErrors() },
      },
    },
    async (request, reply) => {
      const { apartment, etag } = await service.get(requireAuth(request).organizationId, request.params.id);
      return reply.header('etag', etag).send(apartment);
    },
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
        headers: IfMatchHeaders,
        body: UpdateApartmentBody,
        response: { 200: Type.Ref(ApartmentSchema, { headers: ETAG_HEADER }), ...partnerErrors(409, 412, 413) },
      },
    },
    async (request, reply) => {
      const input = dropIgnored(request.body, APARTMENT_IGNORED) as never;
      const apartment = await service.update(requireAuth(request).organizationId, request.params.id, input, request.headers['if-match']);
      return reply.header('etag', etagOf(apartment)).send(apartment);
    },
  );
};
