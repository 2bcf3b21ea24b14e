import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireAuth } from '../../http/auth.js';
import { sendCompressible } from '../../http/compression.js';
import { ETAG_HEADER, IfMatchHeaders, NOT_MODIFIED, etagOf, ifNoneMatchHits } from '../../http/etag.js';
import { IdParams, dropIgnored, partnerErrors } from '../../http/schemas.js';
import { shapesEtag } from './frames.js';
import {
  CreateImageBody,
  CreateNavigatorBody,
  ImageParams,
  ListNavigatorsQuery,
  NAVIGATOR_IGNORED,
  NavigatorImageSchema,
  NavigatorSchema,
  PoisBody,
  ShapeSchema,
  ShapesBody,
  UpdateImageBody,
  UpdateNavigatorBody,
} from './schemas.js';
import type { ServedDocument } from './service.js';

/** 2,000 shapes of detailed outlines are larger than the 1 MB JSON limit of other routes. */
const SHAPES_BODY_LIMIT = 4 * 1024 * 1024;
const IMAGE_IGNORED = ['id', 'imageUrl', 'asset', 'shapes', 'pois', 'createdAt'];
/** The ETag of a frame's shapes (GET and PUT …/shapes): what the next PUT sends in If-Match. */
const SHAPES_ETAG = { ETag: { type: 'string', description: 'Strong ETag of the frame’s shapes; send it back in If-Match of the shapes PUT' } };

/** A cached read: its bytes as they are, its ETag, 304 when If-None-Match names it. */
function sendDocument(request: FastifyRequest, reply: FastifyReply, doc: ServedDocument<unknown>) {
  reply.header('etag', doc.etag);
  if (ifNoneMatchHits(request.headers['if-none-match'], doc.etag)) return reply.code(304).send();
  return sendCompressible(reply, doc.body);
}

export const navigatorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.navigators;
  const tags = ['Navigators'];
  const security = [{ apiKey: [] }];
  const Image = NavigatorImageSchema;

  app.get(
    '/navigator',
    {
      config: { auth: 'partner', publishable: true },
      schema: {
        tags,
        summary: 'List an estate’s navigators: its first one, with the nested ones inside it',
        security,
        querystring: ListNavigatorsQuery,
        response: { 200: Type.Array(Type.Ref(NavigatorSchema), { headers: ETAG_HEADER }), ...partnerErrors() },
      },
    },
    async (request, reply) => sendDocument(request, reply, await service.list(requireAuth(request).organizationId, request.query.estateId)),
  );

  app.post(
    '/navigator',
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Add a navigator: nested in another for one of the estate’s buildings, or the estate’s first',
        security,
        body: CreateNavigatorBody,
        response: { 201: Type.Ref(NavigatorSchema), ...partnerErrors(409, 413) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(requireAuth(request).organizationId, request.body)),
  );

  app.get(
    '/navigator/:id',
    {
      config: { auth: 'partner', publishable: true },
      schema: {
        tags,
        summary: 'Read a navigator: frames by angle with their shapes and POIs, and its nested navigators',
        security,
        params: IdParams,
        response: { 200: Type.Ref(NavigatorSchema, { headers: ETAG_HEADER }), ...partnerErrors() },
      },
    },
    async (request, reply) => sendDocument(request, reply, await service.get(requireAuth(request).organizationId, request.params.id)),
  );

  app.patch(
    '/navigator/:id',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change a navigator’s SEO fields, isPreview or options (merged key by key; theme values must be CSS colours)',
        security,
        params: IdParams,
        headers: IfMatchHeaders,
        body: UpdateNavigatorBody,
        response: { 200: Type.Ref(NavigatorSchema, { headers: ETAG_HEADER }), ...partnerErrors(409, 412, 413) },
      },
    },
    async (request, reply) => {
      const input = dropIgnored(request.body, NAVIGATOR_IGNORED) as never;
      const navigator = await service.update(requireAuth(request).organizationId, request.params.id, input, request.headers['if-match']);
      return reply.header('etag', etagOf(navigator)).send(navigator);
    },
  );

  app.delete(
    '/navigator/:id',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Delete a nested navigator with its frames and nested navigators (the estate’s first cannot be deleted: 409)',
        security,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...partnerErrors(409) },
      },
    },
    async (request, reply) => {
      await service.delete(requireAuth(request).organizationId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/navigator/:id/images',
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Add a frame: an image asset at an angle (one frame per angle)',
        security,
        params: IdParams,
        body: CreateImageBody,
        response: { 201: Image, ...partnerErrors(409, 413) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.frames.create(requireAuth(request).organizationId, request.params.id, request.body)),
  );

  app.patch(
    '/navigator/:id/images/:imageId',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Change a frame: its asset, angle, name, marketing stop or highlight label',
        security,
        params: ImageParams,
        body: UpdateImageBody,
        response: { 200: Image, ...partnerErrors(409, 413) },
      },
    },
    async (request) => {
      const { id, imageId } = request.params;
      return service.frames.update(requireAuth(request).organizationId, id, imageId, dropIgnored(request.body, IMAGE_IGNORED) as never);
    },
  );

  app.delete(
    '/navigator/:id/images/:imageId',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Delete a frame with its shapes and POIs',
        security,
        params: ImageParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...partnerErrors() },
      },
    },
    async (request, reply) => {
      await service.frames.delete(requireAuth(request).organizationId, request.params.id, request.params.imageId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/navigator/:id/images/:imageId/shapes',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Read a frame’s shapes as stored now, with the ETag that If-Match of the shapes PUT names',
        security,
        params: ImageParams,
        response: {
          200: Type.Array(ShapeSchema, { description: 'The frame’s shapes, in their order', headers: SHAPES_ETAG }),
          304: NOT_MODIFIED,
          ...partnerErrors(),
        },
      },
    },
    async (request, reply) => {
      const { id, imageId } = request.params;
      const { shapes, etag } = await service.frames.shapes(requireAuth(request).organizationId, id, imageId);
      reply.header('etag', etag);
      if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
      return shapes;
    },
  );

  app.put(
    '/navigator/:id/images/:imageId/shapes',
    {
      bodyLimit: SHAPES_BODY_LIMIT,
      config: { auth: 'partner' },
      schema: {
        tags,
        summary:
          'Replace a frame’s shapes: SVG path data in overlay coordinates (the renders’ pixels), each pointing at an apartment or building of the estate; with If-Match, only while the shapes are those it names',
        security,
        params: ImageParams,
        headers: IfMatchHeaders,
        body: ShapesBody,
        response: { 200: { ...Image, headers: SHAPES_ETAG }, ...partnerErrors(412, 413) },
      },
    },
    async (request, reply) => {
      const { id, imageId } = request.params;
      const frame = await service.frames.replaceShapes(requireAuth(request).organizationId, id, imageId, request.body, request.headers['if-match']);
      return reply.header('etag', shapesEtag(frame.shapes)).send(frame);
    },
  );

  app.put(
    '/navigator/:id/images/:imageId/pois',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Replace a frame’s points of interest: inside the overlay, panoramas of the organization',
        security,
        params: ImageParams,
        body: PoisBody,
        response: { 200: Image, ...partnerErrors(413) },
      },
    },
    async (request) => {
      const { id, imageId } = request.params;
      return service.frames.replacePois(requireAuth(request).organizationId, id, imageId, request.body);
    },
  );
};
