import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireAuth } from '../../http/auth.js';
import { PAGE_HEADERS, setPageHeaders } from '../../http/paging.js';
import { ChangesQuery, IdParams, changesPage, errorResponses, partnerErrors } from '../../http/schemas.js';
import { dropIgnored } from '../../http/schemas.js';
import {
  ApartmentInquiriesQuery,
  EstateIdParams,
  INQUIRY_IGNORED,
  InquiryList,
  InquiryReceipt,
  InquirySchema,
  ListInquiriesQuery,
  SubmitInquiryBody,
  UpdateInquiryBody,
} from './schemas.js';
import type { InquiryPage } from './service.js';

const InquiryListPage = { ...InquiryList, headers: PAGE_HEADERS };

/** The `{count, items}` of a page, with its paging headers. */
function paged(request: FastifyRequest, reply: FastifyReply, page: InquiryPage) {
  setPageHeaders(request, reply, { total: page.count, offset: page.offset, limit: page.limit });
  return { count: page.count, items: page.items };
}

export const inquiryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.inquiries;
  const tags = ['Inquiries'];
  const security = [{ apiKey: [] }];

  app.post(
    '/estates/:estateId/inquiries',
    {
      config: { auth: 'public', idempotent: true, rateLimitClass: 'inquiry' },
      schema: {
        tags,
        summary: 'Submit an inquiry about an estate (public, no key; rate-limited per client IP)',
        params: EstateIdParams,
        body: SubmitInquiryBody,
        response: { 201: InquiryReceipt, ...errorResponses(400, 401, 404, 409, 413, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.submit(request.params.estateId, request.body)),
  );

  app.get(
    '/inquiry',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'List inquiries, newest first unless sorted; filter by estate, status and a search of name, e-mail and phone',
        security,
        querystring: ListInquiriesQuery,
        response: { 200: InquiryListPage, ...partnerErrors() },
      },
    },
    async (request, reply) => paged(request, reply, await service.list(requireAuth(request).organizationId, request.query)),
  );

  app.get(
    '/inquiry/changes',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Inquiries created or changed (status) after a cursor, oldest change first (follow nextCursor; never misses a change)',
        security,
        querystring: ChangesQuery,
        response: { 200: changesPage(InquirySchema), ...partnerErrors() },
      },
    },
    async (request) => service.changes(requireAuth(request).organizationId, request.query),
  );

  app.patch(
    '/inquiry/:id',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change the status of an inquiry',
        security,
        params: IdParams,
        body: UpdateInquiryBody,
        response: { 200: Type.Ref(InquirySchema), ...partnerErrors() },
      },
    },
    async (request) => service.update(requireAuth(request).organizationId, request.params.id, dropIgnored(request.body, INQUIRY_IGNORED)),
  );

  app.get(
    '/apartment/:id/inquiries',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Inquiries naming an apartment, newest first unless sorted; the filters of GET /inquiry but estateId',
        security,
        params: IdParams,
        querystring: ApartmentInquiriesQuery,
        response: { 200: InquiryListPage, ...partnerErrors() },
      },
    },
    async (request, reply) => paged(request, reply, await service.listForApartment(requireAuth(request).organizationId, request.params.id, request.query)),
  );
};
