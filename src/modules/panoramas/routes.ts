import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../http/auth.js';
import { IdParams, errorResponses, partnerErrors } from '../../http/schemas.js';
import { CreatePanoramaBody, PanoramaSchema } from './schemas.js';

/** Panoramas are read-only on the partner surface; the operator creates them. */
export const panoramaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.panoramas;

  app.post(
    '/admin/apartments/:id/panoramas',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['Admin'],
        summary: 'Create a panorama of an apartment',
        security: [{ operatorToken: [] }],
        params: IdParams,
        body: CreatePanoramaBody,
        response: { 201: Type.Ref(PanoramaSchema), ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(request.params.id, request.body)),
  );

  app.get(
    '/apartment/:id/panoramas',
    {
      config: { auth: 'partner', publishable: true },
      schema: {
        tags: ['Apartments'],
        summary: 'Panoramas of an apartment, highest priority first, linked panoramas one level deep',
        security: [{ apiKey: [] }],
        params: IdParams,
        response: { 200: Type.Array(Type.Ref(PanoramaSchema)), ...partnerErrors() },
      },
    },
    async (request) => service.listForApartment(requireAuth(request).organizationId, request.params.id),
  );
};
