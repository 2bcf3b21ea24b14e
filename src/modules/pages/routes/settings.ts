import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { requireAuth } from '../../../http/auth.js';
import { ETAG_HEADER, NOT_MODIFIED, etagOf, ifNoneMatchHits } from '../../../http/etag.js';
import { errorResponses, partnerErrors } from '../../../http/schemas.js';
import { PageEstateParams, PageSettingsSchema, PreviewLinkSchema, PutPageBody } from '../schemas.js';

const tags = ['Public page'];
const security = [{ apiKey: [] }];

/** GET /api/v1/estates/{estateId}/page, PUT it, and the preview link (inside the /api/v1 prefix). */
export const pageApiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.pages;
  app.get(
    '/estates/:estateId/page',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Read the public page’s settings (public; while the page is off only the owner sees them, others the defaults)',
        params: PageEstateParams,
        response: { 200: Type.Ref(PageSettingsSchema, { headers: ETAG_HEADER }), 304: NOT_MODIFIED, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const { settings, owner } = await service.settings(request.params.estateId, request.auth?.organizationId);
      const etag = etagOf(settings);
      reply.header('etag', etag);
      reply.header('vary', 'authorization');
      reply.header('cache-control', owner ? 'private, no-store' : 'public, max-age=30');
      // No body and so no content headers (a proxy that reads Content-Type would parse nothing as JSON).
      if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return (reply as FastifyReply).code(304).send();
      return settings;
    },
  );

  app.put(
    '/estates/:estateId/page',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Configure the public page: on or off, the navigator, sections, embed origins, locale',
        security,
        params: PageEstateParams,
        body: PutPageBody,
        response: { 200: Type.Ref(PageSettingsSchema), ...partnerErrors(413) },
      },
    },
    async (request) => service.put(requireAuth(request).organizationId, request.params.estateId, request.body),
  );

  app.post(
    '/estates/:estateId/page/preview',
    {
      // A retried create with the same Idempotency-Key gets the same link, as every creating POST does.
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'A signed link (24 hours) that renders the page even while it is off, marked noindex',
        security,
        params: PageEstateParams,
        response: { 201: PreviewLinkSchema, ...partnerErrors() },
      },
    },
    async (request, reply) => reply.code(201).send(await service.preview(requireAuth(request).organizationId, request.params.estateId)),
  );

  app.delete(
    '/estates/:estateId/page/previews',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Revoke every preview link of the estate issued so far (links issued after this call work)',
        security,
        params: PageEstateParams,
        response: { 204: Type.Null({ description: 'Every earlier preview link now answers 404' }), ...partnerErrors() },
      },
    },
    async (request, reply) => {
      await service.revokePreviews(requireAuth(request).organizationId, request.params.estateId);
      return reply.code(204).send(null);
    },
  );
};
