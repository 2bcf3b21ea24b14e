import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { addonBaseRoutes, childRoutes, orderRoute } from '../route-kit.js';
import { EstateParams, ItemParams, SectionParams } from '../schemas.js';
import { CreateGalleryItem, CreateGallerySection, GalleryDocument, GalleryItem, GallerySection, UpdateGalleryItem, UpdateGallerySection } from './schemas.js';

export const galleryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.addons.gallery;
  const tags = ['Add-on: gallery'];
  const base = '/estates/:estateId/gallery';

  addonBaseRoutes(app, { base, tags, name: 'gallery', document: GalleryDocument, reader: service, enable: (o, e, on) => service.enable(o, e, on) });

  childRoutes(app, tags, {
    path: `${base}/sections`,
    item: 'sectionId',
    params: EstateParams,
    itemParams: SectionParams,
    createBody: CreateGallerySection,
    updateBody: UpdateGallerySection,
    child: GallerySection,
    summaries: {
      create: 'Create a gallery section',
      order: 'Order the sections',
      update: 'Change a section (only the fields sent)',
      remove: 'Delete a section; its items become ungrouped',
    },
    create: (o, p, body) => service.createSection(o, p.estateId, body),
    order: (o, p, ids) => service.orderSections(o, p.estateId, ids),
    update: (o, p, body) => service.updateSection(o, p.estateId, p.sectionId, body),
    remove: (o, p) => service.deleteSection(o, p.estateId, p.sectionId),
  });

  // Items live in one table whether grouped or not; their collection path orders the ungrouped ones.
  childRoutes(app, tags, {
    path: `${base}/items`,
    item: 'itemId',
    params: EstateParams,
    itemParams: ItemParams,
    createBody: CreateGalleryItem,
    updateBody: UpdateGalleryItem,
    child: GalleryItem,
    summaries: {
      create: 'Add an image or video asset',
      order: 'Order the ungrouped items',
      update: 'Change an item; sectionId moves it',
      remove: 'Remove an item',
    },
    create: (o, p, body) => service.createItem(o, p.estateId, body),
    order: (o, p, ids) => service.orderItems(o, p.estateId, null, ids),
    update: (o, p, body) => service.updateItem(o, p.estateId, p.itemId, body),
    remove: (o, p) => service.deleteItem(o, p.estateId, p.itemId),
  });

  orderRoute(app, tags, {
    path: `${base}/sections/:sectionId/items/order`,
    params: SectionParams,
    child: GalleryItem,
    summary: 'Order the items of one section',
    order: (o, p, ids) => service.orderItems(o, p.estateId, p.sectionId, ids),
  });
};
