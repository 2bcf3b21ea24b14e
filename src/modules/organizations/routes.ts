import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAuth } from '../../http/auth.js';
import { IdParams, errorResponses, partnerErrors } from '../../http/schemas.js';
import { AdminUpdateEstateBody, EstateSchema } from '../estates/schemas.js';
import {
  ApiKeySchema,
  CreateKeyBody,
  CreateOrganizationBody,
  CreatedOrganization,
  CurrentKeySchema,
  IssueKeyBody,
  IssuedKeySchema,
  KeyIdParams,
  ListOrganizationsQuery,
  OrganizationSchema,
} from './schemas.js';

/** The operator surface: authenticated by ADMIN_TOKEN, never by an organization key (403). */
export const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { organizations, estates } = app.services;
  const tags = ['Admin'];
  const security = [{ operatorToken: [] }];
  const config = { auth: 'admin' as const };
  const errors = (...extra: number[]) => errorResponses(400, 401, 403, 404, 422, ...extra);

  app.post(
    '/admin/organizations',
    {
      config,
      schema: {
        tags,
        summary: 'Create an organization and its first API key',
        security,
        body: CreateOrganizationBody,
        response: { 201: CreatedOrganization, ...errors() },
      },
    },
    async (request, reply) => reply.code(201).send(await organizations.create(request.body)),
  );

  app.get(
    '/admin/organizations',
    {
      config,
      schema: {
        tags,
        summary: 'List organizations',
        security,
        querystring: ListOrganizationsQuery,
        response: { 200: Type.Array(OrganizationSchema), ...errors() },
      },
    },
    async (request) => organizations.list(request.query.offset ?? 0, request.query.limit ?? 100),
  );

  app.post(
    '/admin/organizations/:id/api-keys',
    {
      config,
      schema: {
        tags,
        summary: 'Issue another API key (the body is optional)',
        security,
        params: IdParams,
        body: IssueKeyBody,
        response: { 201: IssuedKeySchema, ...errors() },
      },
      // Every field is optional, so a bodiless POST means "defaults", not a malformed request.
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
    async (request, reply) => reply.code(201).send(await organizations.issueKey(request.params.id, request.body ?? {})),
  );

  app.delete(
    '/admin/api-keys/:keyId',
    { config, schema: { tags, summary: 'Revoke an API key (401 from then on)', security, params: KeyIdParams, response: { 204: Type.Null(), ...errors() } } },
    async (request, reply) => {
      await organizations.revokeKey(request.params.keyId);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/admin/estates/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Set dashboard-managed estate fields',
        security,
        params: IdParams,
        body: AdminUpdateEstateBody,
        response: { 200: Type.Ref(EstateSchema), ...errors() },
      },
    },
    async (request) => estates.adminUpdate(request.params.id, request.body),
  );
};

/**
 * An organization manages its own keys. Every one of these needs the write scope, also the list: a
 * read-only or publishable key must not learn which other keys exist.
 */
export const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { organizations } = app.services;
  const tags = ['API keys'];
  const security = [{ apiKey: [] }];
  const config = { auth: 'partner' as const, scope: 'write' as const };

  app.get(
    '/api-keys',
    {
      config,
      schema: {
        tags,
        summary: "List the organization's API keys, newest first (never their secrets; revoked and expired keys say so)",
        security,
        response: { 200: Type.Array(ApiKeySchema), ...partnerErrors() },
      },
    },
    async (request) => organizations.listKeys(requireAuth(request).organizationId),
  );

  app.get(
    '/api-keys/current',
    {
      config: { auth: 'partner', scope: 'any' },
      schema: {
        tags,
        summary: 'The calling key: id, name, scopes, organization, expiry (any valid key, publishable too; never the secret)',
        security,
        response: { 200: CurrentKeySchema, ...partnerErrors() },
      },
    },
    async (request) => {
      const { organizationId, keyId } = requireAuth(request);
      return organizations.currentKey(organizationId, keyId);
    },
  );

  app.post(
    '/api-keys',
    {
      // Not idempotent on purpose: a replay would need the secret stored in the clear (docs/decisions.md).
      config,
      schema: {
        tags,
        summary: 'Issue an API key (read, write, or publishable for browsers); the secret is shown only in this answer',
        security,
        body: CreateKeyBody,
        response: { 201: IssuedKeySchema, ...partnerErrors() },
      },
    },
    async (request, reply) => reply.code(201).send(await organizations.createKey(requireAuth(request).organizationId, request.body)),
  );

  app.delete(
    '/api-keys/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Revoke an API key (401 from then on, on every instance within a second); not the last write key (409)',
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...partnerErrors(409) },
      },
    },
    async (request, reply) => {
      await organizations.revokeOwnKey(requireAuth(request).organizationId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
