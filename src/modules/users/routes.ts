import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams, errorResponses } from '../../http/schemas.js';
import { CreateUserBody, UserSchema } from './schemas.js';

/** Organization members are managed by the operator; partners only see them as an inquiry's referralUser. */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.users;
  app.post(
    '/admin/organizations/:id/users',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['Admin'],
        summary: 'Add a member (user) to an organization',
        security: [{ operatorToken: [] }],
        params: IdParams,
        body: CreateUserBody,
        response: { 201: Type.Ref(UserSchema), ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(request.params.id, request.body)),
  );
};
