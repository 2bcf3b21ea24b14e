import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams, StringEnum, errorResponses } from '../../../http/schemas.js';
import { DASHBOARD_ROLES } from './service.js';

export const InvitationBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    role: StringEnum(DASHBOARD_ROLES, 'admin, editor or viewer (complete list)'),
  },
  { additionalProperties: false },
);

const InvitationSchema = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'The single-use link (valid 7 days) to give the person; shown only here' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

/** The operator invites an organization's first admin (admins invite others from the dashboard). */
export const invitationAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/admin/organizations/:id/invitations',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['Admin'],
        summary: 'Invite a person to the organization’s dashboard (a single-use link valid 7 days)',
        security: [{ operatorToken: [] }],
        params: IdParams,
        body: InvitationBody,
        response: { 201: InvitationSchema, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await app.services.people.invite(request.params.id, request.body, null)),
  );
};
