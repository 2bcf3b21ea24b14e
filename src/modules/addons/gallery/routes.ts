import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../../http/auth.js';
import { serveAddon } from '../public-read.js';
import { deleteResponses, readResponses, security, writeResponses } from '../route-kit.js';
import { EnableBody, EstateParams, ItemParams, OrderBody, SectionParams } from '../schemas.js';
import { CreateGalleryItem, CreateGallerySection, GalleryDocument, GalleryItem, GallerySection, UpdateGalleryItem, UpdateGallerySection } from './schemas.js';

export const galleryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.addons.gallery;
  const cache = app.services.addons.publicCache;
  const tags = ['Add-on: gallery'];
  const base = '/estates/:estateId/gallery';
  const org = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).organizationId;

  app.get(
    base,
    {
      config: { auth: 'public' },
      schema: { tags, summary: 'Read the gallery (public; the owner also sees it while off)', params: EstateParams, response: readResponses(GalleryDocument) },
    },
    async (request, reply) => serveAddon(app.deps.db, cache, service, request, reply, request.params.estateId),
  );

  app.put(
    base,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Enable or disable the gallery',
        security,
        params: EstateParams,
        body: EnableBody,
        response: writeResponses(200, GalleryDocument),
      },
    },
    async (request) => service.enable(org(request), request.params.estateId, request.body.enabled),
  );

  app.post(
    `${base}/sections`,
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Create a gallery section',
        security,
        params: EstateParams,
        body: CreateGallerySection,
        response: writeResponses(201, GallerySection),
      },
    },
    async (request, reply) => reply.code(201).send(await service.createSection(org(request), request.params.estateId, request.body)),
  );

  app.put(
    `${base}/sections/order`,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Order the sections',
        security,
        params: EstateParams,
        body: OrderBody,
        response: writeResponses(200, Type.Array(GallerySection)),
      },
    },
    async (request) => service.orderSections(org(request), request.params.estateId, request.body.orderedIds),
  );

  app.patch(
    `${base}/sections/:sectionId`,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change a section (only the fields sent)',
        security,
        params: SectionParams,
        body: UpdateGallerySection,
        response: writeResponses(200, GallerySection),
      },
    },
    async (request) => service.updateSection(org(request), request.params.estateId, request.params.sectionId, request.body),
  );

  app.delete(
    `${base}/sections/:sectionId`,
    {
      config: { auth: 'partner' },
      schema: { tags, summary: 'Delete a section; its items become ungrouped', security, params: SectionParams, response: deleteResponses() },
    },
    async (request, reply) => {
      await service.deleteSection(org(request), request.params.estateId, request.params.sectionId);
      return reply.code(204).send(null);
    },
  );

  app.put(
    `${base}/sections/:sectionId/items/order`,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Order the items of one section',
        security,
        params: SectionParams,
        body: OrderBody,
        response: writeResponses(200, Type.Array(GalleryItem)),
      },
    },
    async (request) => service.orderItems(org(request), request.params.estateId, request.params.sectionId, request.body.orderedIds),
  );

  app.post(
    `${base}/items`,
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Add an image or video asset',
        security,
        params: EstateParams,
        body: CreateGalleryItem,
        response: writeResponses(201, GalleryItem),
      },
    },
    async (request, reply) => reply.code(201).send(await service.createItem(org(request), request.params.estateId, request.body)),
  );

  app.put(
    `${base}/items/order`,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Order the ungrouped items',
        security,
        params: EstateParams,
        body: OrderBody,
        response: writeResponses(200, Type.Array(GalleryItem)),
      },
    },
    async (request) => service.orderItems(org(request), request.params.estateId, null, request.body.orderedIds),
  );

  app.patch(
    `${base}/items/:itemId`,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change an item; sectionId moves it',
        security,
        params: ItemParams,
        body: UpdateGalleryItem,
        response: writeResponses(200, GalleryItem),
      },
    },
    async (request) => service.updateItem(org(request), request.params.estateId, request.params.itemId, request.body),
  );

  app.delete(
    `${base}/items/:itemId`,
    { config: { auth: 'partner' }, schema: { tags, summary: 'Remove an item', security, params: ItemParams, response: deleteResponses() } },
    async (request, reply) => {
      await service.deleteItem(org(request), request.params.estateId, request.params.itemId);
      return reply.code(204).send(null);
    },
  );
};
