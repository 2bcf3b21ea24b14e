import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../../http/auth.js';
import { serveAddon } from '../public-read.js';
import { deleteResponses, readResponses, security, writeResponses } from '../route-kit.js';
import { EnableBody, EstateParams, OrderBody, SectionFileParams, SectionParams } from '../schemas.js';
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
  const cache = app.services.addons.publicCache;
  const tags = ['Add-on: investment'];
  const base = '/estates/:estateId/investment';
  const org = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).organizationId;

  app.get(
    base,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Read the investment add-on (public; the owner also sees it while off)',
        params: EstateParams,
        response: readResponses(InvestmentDocument),
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
        summary: 'Enable or disable the investment add-on',
        security,
        params: EstateParams,
        body: EnableBody,
        response: writeResponses(200, InvestmentDocument),
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
        summary: 'Create a section (appended unless order is given)',
        security,
        params: EstateParams,
        body: CreateInvestmentSection,
        response: writeResponses(201, InvestmentSection),
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
        summary: 'Order all sections',
        security,
        params: EstateParams,
        body: OrderBody,
        response: writeResponses(200, Type.Array(InvestmentSection)),
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
        body: UpdateInvestmentSection,
        response: writeResponses(200, InvestmentSection),
      },
    },
    async (request) => service.updateSection(org(request), request.params.estateId, request.params.sectionId, request.body),
  );

  app.delete(
    `${base}/sections/:sectionId`,
    { config: { auth: 'partner' }, schema: { tags, summary: 'Delete a section and its files', security, params: SectionParams, response: deleteResponses() } },
    async (request, reply) => {
      await service.deleteSection(org(request), request.params.estateId, request.params.sectionId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/sections/:sectionId/files`,
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Attach an existing asset to a section',
        security,
        params: SectionParams,
        body: CreateInvestmentFile,
        response: writeResponses(201, InvestmentFile),
      },
    },
    async (request, reply) => reply.code(201).send(await service.createFile(org(request), request.params.estateId, request.params.sectionId, request.body)),
  );

  app.put(
    `${base}/sections/:sectionId/files/order`,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Order all files of a section',
        security,
        params: SectionParams,
        body: OrderBody,
        response: writeResponses(200, Type.Array(InvestmentFile)),
      },
    },
    async (request) => service.orderFiles(org(request), request.params.estateId, request.params.sectionId, request.body.orderedIds),
  );

  app.patch(
    `${base}/sections/:sectionId/files/:fileId`,
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change a file label and/or order',
        security,
        params: SectionFileParams,
        body: UpdateInvestmentFile,
        response: writeResponses(200, InvestmentFile),
      },
    },
    async (request) => service.updateFile(org(request), request.params.estateId, request.params.sectionId, request.params.fileId, request.body),
  );

  app.delete(
    `${base}/sections/:sectionId/files/:fileId`,
    {
      config: { auth: 'partner' },
      schema: { tags, summary: 'Detach a file (the asset stays)', security, params: SectionFileParams, response: deleteResponses() },
    },
    async (request, reply) => {
      await service.deleteFile(org(request), request.params.estateId, request.params.sectionId, request.params.fileId);
      return reply.code(204).send(null);
    },
  );
};
