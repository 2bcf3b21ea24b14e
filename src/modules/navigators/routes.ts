import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../errors.js';
import { requireAuth } from '../../http/auth.js';
import { IdParams, partnerErrors } from '../../http/schemas.js';
import { isUuid } from '../../ids.js';
import { navigatorsRepository, toNavigator } from './repository.js';
import { NavigatorSchema } from './schemas.js';

export const navigatorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/navigator/:id',
    {
      config: { auth: 'partner', publishable: true },
      schema: {
        tags: ['Estates'],
        summary: 'Read a navigator',
        security: [{ apiKey: [] }],
        params: IdParams,
        response: { 200: Type.Ref(NavigatorSchema), ...partnerErrors() },
      },
    },
    async (request) => {
      const { organizationId } = requireAuth(request);
      const row = isUuid(request.params.id) ? await navigatorsRepository.get(app.deps.db, organizationId, request.params.id) : undefined;
      if (!row) throw notFound('Navigator', request.params.id);
      return toNavigator(row);
    },
  );
};
