import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../../http/auth.js';
import { serveAddon } from '../public-read.js';
import { deleteResponses, readResponses, security, writeResponses } from '../route-kit.js';
import { EstateParams, OrderBody, PoiParams } from '../schemas.js';
import { CreatePoiBody, MapDocument, Poi, PutMapBody, UpdatePoiBody } from './schemas.js';

export const mapRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.addons.map;
  const cache = app.services.addons.publicCache;
  const tags = ['Add-on: map'];
  const base = '/estates/:estateId/map';
  const org = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).organizationId;

  app.get(
    base,
    {
      config: { auth: 'public' },
      schema: { tags, summary: 'Read the map (public; the owner also sees it while off)', params: EstateParams, response: readResponses(MapDocument) },
    },
    async (request, reply) => serveAddon(app.deps.db, cache, service, request, reply, request.params.estateId),
  );

  app.put(
    base,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Create or update the map configuration (only the fields sent)',
        security,
        params: EstateParams,
        body: PutMapBody,
        response: writeResponses(200, MapDocument),
      },
    },
    async (request) => service.put(org(request), request.params.estateId, request.body),
  );

  app.delete(
    base,
    {
      config: { auth: 'partner' },
      schema: { tags, summary: 'Remove the configuration and every point of interest', security, params: EstateParams, response: deleteResponses() },
    },
    async (request, reply) => {
      await service.remove(org(request), request.params.estateId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/pois`,
    {
      config: { auth: 'partner', idempotent: true },
      schema: { tags, summary: 'Add a point of interest', security, params: EstateParams, body: CreatePoiBody, response: writeResponses(201, Poi) },
    },
    async (request, reply) => reply.code(201).send(await service.createPoi(org(request), request.params.estateId, request.body)),
  );

  app.put(
    `${base}/pois/order`,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Order the points of interest',
        security,
        params: EstateParams,
        body: OrderBody,
        response: writeResponses(200, Type.Array(Poi)),
      },
    },
    async (request) => service.orderPois(org(request), request.params.estateId, request.body.orderedIds),
  );

  app.patch(
    `${base}/pois/:poiId`,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change a point of interest (only the fields sent)',
        security,
        params: PoiParams,
        body: UpdatePoiBody,
        response: writeResponses(200, Poi),
      },
    },
    async (request) => service.updatePoi(org(request), request.params.estateId, request.params.poiId, request.body),
  );

  app.delete(
    `${base}/pois/:poiId`,
    { config: { auth: 'partner' }, schema: { tags, summary: 'Remove a point of interest', security, params: PoiParams, response: deleteResponses() } },
    async (request, reply) => {
      await service.deletePoi(org(request), request.params.estateId, request.params.poiId);
      return reply.code(204).send(null);
    },
  );
};
