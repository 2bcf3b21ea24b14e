import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError, badRequest } from '../../errors.js';
import { requireAuth } from '../../http/auth.js';
import { IdParams, partnerErrors } from '../../http/schemas.js';
import { AssetSchema, ListAssetsQuery, MAX_UPLOAD_BYTES, RegisterAssetBody } from './schemas.js';

const tags = ['Assets'];
const security = [{ apiKey: [] }];

/** The upload route in its own scope: only it parses multipart, the rest of the API keeps refusing non-JSON bodies. */
const uploadRoute: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(multipart, {
    // busboy stops at fileSize and marks the file truncated; the ingest refuses a truncated file (413).
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 50, fieldNameSize: 100 },
  });
  const service = app.services.assets;

  app.post(
    '/asset/upload',
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Upload a file (multipart/form-data, field `file`, optional field `name` before it); at most 20 MB',
        security,
        consumes: ['multipart/form-data'],
        response: { 201: Type.Ref(AssetSchema), ...partnerErrors(413) },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireAuth(request);
      if (!request.isMultipart()) throw badRequest('Send multipart/form-data with the file under the field name file');
      const part = await request.file().catch((err: unknown) => {
        throw asMultipartError(err);
      });
      if (!part) throw new AppError('unprocessable', 'Validation failed: file is required');
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw new AppError('unprocessable', `Validation failed: file is required (got a file under the field name ${part.fieldname})`);
      }
      const nameField = part.fields.name;
      const name = nameField && !Array.isArray(nameField) && nameField.type === 'field' ? String(nameField.value) : undefined;
      if (name !== undefined && (name.trim() === '' || name.length > 200)) {
        part.file.resume();
        throw new AppError('unprocessable', 'Validation failed: name must be 1 to 200 characters');
      }
      const file = part.file;
      const asset = await service
        .upload(organizationId, {
          file,
          filename: part.filename || undefined,
          declaredType: part.mimetype,
          name,
          wasTruncated: () => file.truncated,
        })
        .catch((err: unknown) => {
          // The client went away mid-body: the store failed because its source did, not the storage.
          if (!request.raw.readableAborted) throw err;
          request.log.info('upload aborted by the client');
          throw badRequest('The upload was aborted before the file was complete');
        });
      return reply.code(201).send(asset);
    },
  );
};

/** @fastify/multipart's own errors carry a status; they are all about the request. */
function asMultipartError(err: unknown): Error {
  const e = err as { statusCode?: number; message?: string; code?: string };
  if (e.code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('payloadTooLarge', `file is larger than the upload limit of ${MAX_UPLOAD_BYTES} bytes (20 MB)`);
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) return badRequest(`The multipart body cannot be read: ${e.message}`);
  return err as Error;
}

export const assetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.assets;
  await app.register(uploadRoute);

  app.post(
    '/asset',
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Register a file by URL: the service downloads it (http/https, public addresses, at most 100 MB) and stores its own copy',
        security,
        body: RegisterAssetBody,
        response: { 201: Type.Ref(AssetSchema), ...partnerErrors(413) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.register(requireAuth(request).organizationId, request.body)),
  );

  app.get(
    '/asset',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'List the organization’s assets, newest first; `mimeType` filters by prefix',
        security,
        querystring: ListAssetsQuery,
        response: { 200: Type.Array(Type.Ref(AssetSchema)), ...partnerErrors() },
      },
    },
    async (request) => service.list(requireAuth(request).organizationId, request.query),
  );

  app.get(
    '/asset/:id',
    {
      config: { auth: 'partner' },
      schema: { tags, summary: 'Read an asset', security, params: IdParams, response: { 200: Type.Ref(AssetSchema), ...partnerErrors() } },
    },
    async (request) => service.get(requireAuth(request).organizationId, request.params.id),
  );

  app.delete(
    '/asset/:id',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Delete an asset and its file; apartments keep the id, add-on items naming it are removed',
        security,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...partnerErrors() },
      },
    },
    async (request, reply) => {
      await service.delete(requireAuth(request).organizationId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
