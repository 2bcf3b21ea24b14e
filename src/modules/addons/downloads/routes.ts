import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { addonBaseRoutes, childRoutes } from '../route-kit.js';
import { EstateParams, GroupItemParams, GroupParams } from '../schemas.js';
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
  const tags = ['Add-on: downloads'];
  const base = '/estates/:estateId/downloads';

  addonBaseRoutes(app, { base, tags, name: 'downloads', document: DownloadsDocument, reader: service, enable: (o, e, on) => service.enable(o, e, on) });

  childRoutes(app, tags, {
    path: `${base}/groups`,
    item: 'groupId',
    params: EstateParams,
    itemParams: GroupParams,
    createBody: CreateDownloadsGroup,
    updateBody: UpdateDownloadsGroup,
    child: DownloadsGroup,
    summaries: { create: 'Create a group', order: 'Order the groups', update: 'Change a group (only the fields sent)', remove: 'Delete a group and its items' },
    create: (o, p, body) => service.createGroup(o, p.estateId, body),
    order: (o, p, ids) => service.orderGroups(o, p.estateId, ids),
    update: (o, p, body) => service.updateGroup(o, p.estateId, p.groupId, body),
    remove: (o, p) => service.deleteGroup(o, p.estateId, p.groupId),
  });

  childRoutes(app, tags, {
    path: `${base}/groups/:groupId/items`,
    item: 'itemId',
    params: GroupParams,
    itemParams: GroupItemParams,
    createBody: CreateDownloadsItem,
    updateBody: UpdateDownloadsItem,
    child: DownloadsItem,
    summaries: {
      create: 'Add an asset to a group',
      order: 'Order the items of a group',
      update: 'Change an item (only the fields sent)',
      remove: 'Remove an item (the asset stays)',
    },
    create: (o, p, body) => service.createItem(o, p.estateId, p.groupId, body),
    order: (o, p, ids) => service.orderItems(o, p.estateId, p.groupId, ids),
    update: (o, p, body) => service.updateItem(o, p.estateId, p.groupId, p.itemId, body),
    remove: (o, p) => service.deleteItem(o, p.estateId, p.groupId, p.itemId),
  });
};
