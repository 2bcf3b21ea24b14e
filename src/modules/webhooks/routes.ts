import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../http/auth.js';
import { IdParams, dropIgnored, partnerErrors } from '../../http/schemas.js';
import {
  CreateWebhookBody,
  CreatedWebhook,
  DeliveriesQuery,
  DeliveryList,
  DeliveryParams,
  DeliverySchema,
  SecretSchema,
  UpdateWebhookBody,
  WEBHOOK_IGNORED,
  WebhookSchema,
} from './schemas.js';

export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.webhooks;
  const tags = ['Webhooks'];
  const security = [{ apiKey: [] }];

  app.post(
    '/webhooks',
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Register a webhook endpoint; the answer carries its signing secret, shown only here',
        security,
        body: CreateWebhookBody,
        response: { 201: CreatedWebhook, ...partnerErrors(409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(requireAuth(request).organizationId, request.body)),
  );

  app.get(
    '/webhooks',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'List the webhook endpoints (without secrets)',
        security,
        response: { 200: Type.Array(Type.Ref(WebhookSchema)), ...partnerErrors() },
      },
    },
    async (request) => service.list(requireAuth(request).organizationId),
  );

  app.get(
    '/webhooks/:id',
    {
      config: { auth: 'partner' },
      schema: { tags, summary: 'Read a webhook endpoint', security, params: IdParams, response: { 200: Type.Ref(WebhookSchema), ...partnerErrors() } },
    },
    async (request) => service.get(requireAuth(request).organizationId, request.params.id),
  );

  app.patch(
    '/webhooks/:id',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change a webhook endpoint (enabled: true re-enables a disabled one)',
        security,
        params: IdParams,
        body: UpdateWebhookBody,
        response: { 200: Type.Ref(WebhookSchema), ...partnerErrors() },
      },
    },
    async (request) => service.update(requireAuth(request).organizationId, request.params.id, dropIgnored(request.body, WEBHOOK_IGNORED)),
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Delete a webhook endpoint and its delivery log',
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...partnerErrors() },
      },
    },
    async (request, reply) => {
      await service.delete(requireAuth(request).organizationId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary:
          'Issue a new signing secret; every rotated-out secret keeps signing alongside it until its own 24 hours end (at most 10 at once, 409 beyond). No body',
        security,
        params: IdParams,
        response: { 200: SecretSchema, ...partnerErrors(409) },
      },
    },
    async (request) => service.rotateSecret(requireAuth(request).organizationId, request.params.id),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Delivery attempts of the endpoint, newest first',
        security,
        params: IdParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList, ...partnerErrors() },
      },
    },
    async (request) => service.deliveries(requireAuth(request).organizationId, request.params.id, request.query),
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Send the event of this attempt again now, as a new attempt',
        security,
        params: DeliveryParams,
        response: { 202: Type.Ref(DeliverySchema), ...partnerErrors(409) },
      },
    },
    async (request, reply) => reply.code(202).send(await service.retry(requireAuth(request).organizationId, request.params.id, request.params.deliveryId)),
  );
};
