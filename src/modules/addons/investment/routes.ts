import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { addonBaseRoutes, childRoutes } from '../route-kit.js';
import { EstateParams, SectionFileParams, SectionParams } from '../schemas.js';
import {
  CreateInvestmentFile,
  CreateInvestmentSection,
  InvestmentDocument,
  InvestmentFile,
  InvestmentSection,
  UpdateInvestmentFile,
  UpdateInvestmentSection,
} from './schemas.js';

export const investmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.addons.investment;
  const tags = ['Add-on: investment'];
  const base = '/estates/:estateId/investment';

  addonBaseRoutes(app, {
    base,
    tags,
    name: 'investment add-on',
    document: InvestmentDocument,
    reader: service,
    enable: (o, e, on) => service.enable(o, e, on),
  });

  childRoutes(app, tags, {
    path: `${base}/sections`,
    item: 'sectionId',
    params: EstateParams,
    itemParams: SectionParams,
    createBody: CreateInvestmentSection,
    updateBody: UpdateInvestmentSection,
    child: InvestmentSection,
    summaries: {
      create: 'Create a section (appended unless order is given)',
      order: 'Order all sections',
      update: 'Change a section (only the fields sent)',
      remove: 'Delete a section and its files',
    },
    create: (o, p, body) => service.createSection(o, p.estateId, body),
    order: (o, p, ids) => service.orderSections(o, p.estateId, ids),
    update: (o, p, body) => service.updateSection(o, p.estateId, p.sectionId, body),
    remove: (o, p) => service.deleteSection(o, p.estateId, p.sectionId),
  });

  childRoutes(app, tags, {
    path: `${base}/sections/:sectionId/files`,
    item: 'fileId',
    params: SectionParams,
    itemParams: SectionFileParams,
    createBody: CreateInvestmentFile,
    updateBody: UpdateInvestmentFile,
    child: InvestmentFile,
    summaries: {
      create: 'Attach an existing asset to a section',
      order: 'Order all files of a section',
      update: 'Change a file label and/or order',
      remove: 'Detach a file (the asset stays)',
    },
    create: (o, p, body) => service.createFile(o, p.estateId, p.sectionId, body),
    order: (o, p, ids) => service.orderFiles(o, p.estateId, p.sectionId, ids),
    update: (o, p, body) => service.updateFile(o, p.estateId, p.sectionId, p.fileId, body),
    remove: (o, p) => service.deleteFile(o, p.estateId, p.sectionId, p.fileId),
  });
};
