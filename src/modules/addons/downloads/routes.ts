import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../../http/auth.js';
import { serveAddon } from '../public-read.js';
import { deleteResponses, readResponses, security, writeResponses } from '../route-kit.js';
import { EnableBody, EstateParams, GroupItemParams, GroupParams, OrderBody } from '../schemas.js';
import {
  CreateDownloadsGroup,
  CreateDownloadsItem,
  DownloadsDocument,
  DownloadsGroup,
  DownloadsItem,
  UpdateDownloadsGroup,
  UpdateDownloadsItem,
} from './schemas.js';

export const downloadsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.addons.downloads;
  const cache = app.services.addons.publicCache;
  const tags = ['Add-on: downloads'];
  const base = '/estates/:estateId/downloads';
  const org = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).organizationId;

  app.get(
    base,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Read the downloads (public; the owner also sees them while off)',
        params: EstateParams,
        response: readResponses(DownloadsDocument),
      },
    },
    async (request, reply) => serveAddon(app.deps.db, cache, service, request, reply, request.params.estateId),
  );

  app.put(
    base,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Enable or disable downloads',
        security,
        params: EstateParams,
        body: EnableBody,
        response: writeResponses(200, DownloadsDocument),
      },
    },
    async (request) => service.enable(org(request), request.params.estateId, request.body.enabled),
  );

  app.post(
    `${base}/groups`,
    {
      config: { auth: 'partner', idempotent: true },
      schema: { tags, summary: 'Create a group', security, params: EstateParams, body: CreateDownloadsGroup, response: writeResponses(201, DownloadsGroup) },
    },
    async (request, reply) => reply.code(201).send(await service.createGroup(org(request), request.params.estateId, request.body)),
  );

  app.put(
    `${base}/groups/order`,
    {
      config: { auth: 'partner' },
      schema: { tags, summary: 'Order the groups', security, params: EstateParams, body: OrderBody, response: writeResponses(200, Type.Array(DownloadsGroup)) },
    },
    async (request) => service.orderGroups(org(request), request.params.estateId, request.body.orderedIds),
  );

  app.patch(
    `${base}/groups/:groupId`,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change a group (only the fields sent)',
        security,
        params: GroupParams,
        body: UpdateDownloadsGroup,
        response: writeResponses(200, DownloadsGroup),
      },
    },
    async (request) => service.updateGroup(org(request), request.params.estateId, request.params.groupId, request.body),
  );

  app.delete(
    `${base}/groups/:groupId`,
    { config: { auth: 'partner' }, schema: { tags, summary: 'Delete a group and its items', security, params: GroupParams, response: deleteResponses() } },
    async (request, reply) => {
      await service.deleteGroup(org(request), request.params.estateId, request.params.groupId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/groups/:groupId/items`,
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Add an asset to a group',
        security,
        params: GroupParams,
        body: CreateDownloadsItem,
        response: writeResponses(201, DownloadsItem),
      },
    },
    async (request, reply) => reply.code(201).send(await service.createItem(org(request), request.params.estateId, request.params.groupId, request.body)),
  );

  app.put(
    `${base}/groups/:groupId/items/order`,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Order the items of a group',
        security,
        params: GroupParams,
        body: OrderBody,
        response: writeResponses(200, Type.Array(DownloadsItem)),
      },
    },
    async (request) => service.orderItems(org(request), request.params.estateId, request.params.groupId, request.body.orderedIds),
  );

  app.patch(
    `${base}/groups/:groupId/items/:itemId`,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change an item (only the fields sent)',
        security,
        params: GroupItemParams,
        body: UpdateDownloadsItem,
        response: writeResponses(200, DownloadsItem),
      },
    },
    async (request) => service.updateItem(org(request), request.params.estateId, request.params.groupId, request.params.itemId, request.body),
  );

  app.delete(
    `${base}/groups/:groupId/items/:itemId`,
    {
      config: { auth: 'partner' },
      schema: { tags, summary: 'Remove an item (the asset stays)', security, params: GroupItemParams, response: deleteResponses() },
    },
    async (request, reply) => {
      await service.deleteItem(org(request), request.params.estateId, request.params.groupId, request.params.itemId);
      return reply.code(204).send(null);
    },
  );
};
