import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { requireAuth } from '../../http/auth.js';
import { errorResponses, partnerErrors } from '../../http/schemas.js';
import { type AddonReader, serveAddon } from './public-read.js';
import { EnableBody, EstateParams, OrderBody } from './schemas.js';

export const security = [{ apiKey: [] }];

/** Responses of an add-on write: the body on success plus the partner error set. */
export const writeResponses = (code: 200 | 201, body: TSchema) => ({ [code]: body, ...partnerErrors(409, 413) });

export const deleteResponses = () => ({ 204: Type.Null({ description: 'Deleted' }), ...partnerErrors(409) });

/** Public reads: anonymous is fine, a bad key is still 401; 304 answers a matching If-None-Match. */
export const readResponses = (body: TSchema) => ({
  200: body,
  304: Type.Null({ description: 'Not modified (If-None-Match matched the ETag)' }),
  ...errorResponses(400, 401, 404, 429),
});

type App = Parameters<FastifyPluginAsyncTypebox>[0];
const org = (request: FastifyRequest) => requireAuth(request).organizationId;

/** GET (public) and PUT {enabled} on an add-on's base path. */
export function addonBaseRoutes<D extends { enabled: boolean }>(
  app: App,
  spec: {
    base: string;
    tags: string[];
    name: string;
    document: TSchema;
    reader: AddonReader<D>;
    enable: (organizationId: string, estateId: string, enabled: boolean) => Promise<unknown>;
  },
): void {
  const cache = app.services.addons.publicCache;
  app.get(
    spec.base,
    {
      config: { auth: 'public' },
      schema: {
        tags: spec.tags,
        summary: `Read the ${spec.name} (public; the owner also sees it while off)`,
        params: EstateParams,
        response: readResponses(spec.document),
      },
    },
    async (request, reply) => serveAddon(app.deps.db, cache, spec.reader, request, reply, request.params.estateId),
  );
  app.put(
    spec.base,
    {
      config: { auth: 'partner' },
      schema: {
        tags: spec.tags,
        summary: `Enable or disable the ${spec.name}`,
        security,
        params: EstateParams,
        body: EnableBody,
        response: writeResponses(200, spec.document),
      },
    },
    async (request) => spec.enable(org(request), request.params.estateId, request.body.enabled),
  );
}

/**
 * The four operations of one kind of ordered add-on child under `path`: POST create (201),
 * PUT `path/order`, PATCH and DELETE `path/:item`. Schemas validate and document each route;
 * the handlers receive the validated params and body.
 */
export function childRoutes<P extends TObject, IP extends TObject, C extends TSchema, U extends TSchema>(
  app: App,
  tags: string[],
  spec: {
    path: string;
    item: string;
    params: P;
    itemParams: IP;
    createBody: C;
    updateBody: U;
    child: TSchema;
    summaries: { create: string; order: string; update: string; remove: string };
    create: (organizationId: string, params: Static<P>, body: Static<C>) => Promise<unknown>;
    order?: (organizationId: string, params: Static<P>, orderedIds: string[]) => Promise<unknown>;
    update: (organizationId: string, params: Static<IP>, body: Static<U>) => Promise<unknown>;
    remove: (organizationId: string, params: Static<IP>) => Promise<void>;
  },
): void {
  const itemPath = `${spec.path}/:${spec.item}`;
  app.post(
    spec.path,
    {
      config: { auth: 'partner', idempotent: true },
      schema: { tags, summary: spec.summaries.create, security, params: spec.params, body: spec.createBody, response: writeResponses(201, spec.child) },
    },
    async (request, reply) => reply.code(201).send((await spec.create(org(request), request.params as Static<P>, request.body as Static<C>)) as never),
  );
  const order = spec.order;
  if (order) {
    app.put(
      `${spec.path}/order`,
      {
        config: { auth: 'partner' },
        schema: { tags, summary: spec.summaries.order, security, params: spec.params, body: OrderBody, response: writeResponses(200, Type.Array(spec.child)) },
      },
      async (request) => (await order(org(request), request.params as Static<P>, request.body.orderedIds)) as never,
    );
  }
  app.patch(
    itemPath,
    {
      config: { auth: 'partner' },
      schema: { tags, summary: spec.summaries.update, security, params: spec.itemParams, body: spec.updateBody, response: writeResponses(200, spec.child) },
    },
    async (request) => (await spec.update(org(request), request.params as Static<IP>, request.body as Static<U>)) as never,
  );
  app.delete(
    itemPath,
    { config: { auth: 'partner' }, schema: { tags, summary: spec.summaries.remove, security, params: spec.itemParams, response: deleteResponses() } },
    async (request, reply) => {
      await spec.remove(org(request), request.params as Static<IP>);
      return reply.code(204).send(null);
    },
  );
}

/** A PUT order route for a sibling set that is not a child kind's own collection (gallery items per section). */
export function orderRoute<P extends TObject>(
  app: App,
  tags: string[],
  spec: {
    path: string;
    params: P;
    child: TSchema;
    summary: string;
    order: (organizationId: string, params: Static<P>, orderedIds: string[]) => Promise<unknown>;
  },
): void {
  app.put(
    spec.path,
    {
      config: { auth: 'partner' },
      schema: { tags, summary: spec.summary, security, params: spec.params, body: OrderBody, response: writeResponses(200, Type.Array(spec.child)) },
    },
    async (request) => (await spec.order(org(request), request.params as Static<P>, request.body.orderedIds)) as never,
  );
}
