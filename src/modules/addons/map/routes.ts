import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../../http/auth.js';
import { serveAddon } from '../public-read.js';
import { childRoutes, deleteResponses, readResponses, security, writeResponses } from '../route-kit.js';
import { EstateParams, PoiParams } from '../schemas.js';
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

  childRoutes(app, tags, {
    path: `${base}/pois`,
    item: 'poiId',
    params: EstateParams,
    itemParams: PoiParams,
    createBody: CreatePoiBody,
    updateBody: UpdatePoiBody,
    child: Poi,
    summaries: {
      create: 'Add a point of interest',
      order: 'Order the points of interest',
      update: 'Change a point of interest (only the fields sent)',
      remove: 'Remove a point of interest',
    },
    create: (o, p, body) => service.createPoi(o, p.estateId, body),
    order: (o, p, ids) => service.orderPois(o, p.estateId, ids),
    update: (o, p, body) => service.updatePoi(o, p.estateId, p.poiId, body),
    remove: (o, p) => service.deletePoi(o, p.estateId, p.poiId),
  });
};
