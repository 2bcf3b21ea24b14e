import multipart, { type Multipart, type MultipartValue } from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../errors.js';
import { requireAuth } from '../../http/auth.js';
import { PAGE_HEADERS, setPageHeaders } from '../../http/paging.js';
import { IdParams, partnerErrors } from '../../http/schemas.js';
import { unstorableText } from '../../http/validation.js';
import { isPublishable } from '../organizations/service.js';
import { type Asset, AssetSchema, AssetWithUsageSchema, ListAssetsQuery, MAX_UPLOAD_BYTES, RegisterAssetBody } from './schemas.js';
import type { AssetsService } from './service.js';

const tags = ['Assets'];
const security = [{ apiKey: [] }];

/** Assets created by a request, handed to the image jobs once the response is out (a keyed create commits just before). */
const createdBy = new WeakMap<FastifyRequest, { organizationId: string; asset: Asset }>();

/** 201 with the created asset; its variants are queued by the route's onResponse hook, after the commit. */
function sendCreated(request: FastifyRequest, reply: FastifyReply, organizationId: string, asset: Asset) {
  createdBy.set(request, { organizationId, asset });
  return reply.code(201).send(asset);
}

const queueVariants = (service: AssetsService) => async (request: FastifyRequest, reply: FastifyReply) => {
  const created = createdBy.get(request);
  if (created && reply.statusCode === 201) service.created(created.organizationId, created.asset);
};

/** The upload route in its own scope: only it parses multipart, the rest of the API keeps refusing non-JSON bodies. */
const uploadRoute: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(multipart, {
    // busboy stops at fileSize and marks the file truncated; the ingest refuses a truncated file (413).
    // Two files are let through so that a second one is named in the refusal; a third is a limit error.
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 5, fieldSize: 1024, parts: 7, headerPairs: 50, fieldNameSize: 100 },
  });
  const service = app.services.assets;

  app.post(
    '/asset/upload',
    {
      config: { auth: 'partner', idempotent: true },
      onResponse: queueVariants(service),
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
      const next = readParts(request);
      let name: string | undefined;
      for (;;) {
        const part = await next();
        if (!part) throw new AppError('unprocessable', 'Validation failed: file is required');
        if (part.type === 'field') {
          if (part.fieldname !== 'name' || name !== undefined) throw unexpectedPart(part);
          name = checkedName(part);
          continue;
        }
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new AppError('unprocessable', `Validation failed: file is required (got a file under the field name ${part.fieldname})`);
        }
        const filenameProblem = part.filename ? unstorableText(part.filename) : undefined;
        if (filenameProblem) {
          part.file.resume();
          throw new AppError('unprocessable', `Validation failed: file name (filename) ${filenameProblem}`);
        }
        const file = part.file;
        const asset = await service
          .upload(organizationId, {
            file,
            filename: part.filename || undefined,
            declaredType: part.mimetype,
            name,
            wasTruncated: () => file.truncated,
            // The file is the last part: what follows is read to the end of the body before the row is
            // written, so a second file (or any part after it) refuses the whole upload and keeps nothing.
            beforeRecord: async () => {
              const extra = await next();
              if (extra) throw unexpectedPart(extra);
            },
          })
          .catch((err: unknown) => {
            // The client went away mid-body: the store failed because its source did, not the storage.
            if (!request.raw.readableAborted) throw err;
            request.log.info('upload aborted by the client');
            throw badRequest('The upload was aborted before the file was complete');
          });
        return sendCreated(request, reply, organizationId, asset);
      }
    },
  );
};

/**
 * The parts of the body one at a time, in order; every error of the multipart reader is the request's.
 * @fastify/multipart reports a body that ends before its closing boundary as a normal end, so the
 * close delimiter is watched for on the raw body: an end without it is a 400, not "no file" or a 201.
 */
function readParts(request: FastifyRequest): () => Promise<Multipart | undefined> {
  const closed = watchCloseDelimiter(request);
  const parts = request.parts();
  return async () => {
    let result: IteratorResult<Multipart>;
    try {
      result = await parts.next();
    } catch (err) {
      throw asMultipartError(err);
    }
    if (!result.done) return result.value;
    if (!closed()) throw badRequest('The multipart body cannot be read: it ends before its closing boundary');
    await bodyEnded(request);
    return undefined;
  };
}

/**
 * The close delimiter can arrive before the end of the body the request announced (bytes after it, or
 * a Content-Length the client never fills). Nothing is recorded until the HTTP body has ended: a
 * request that is cut short is the client's failure, and must not leave an asset nobody was told of.
 */
function bodyEnded(request: FastifyRequest): Promise<void> {
  const raw = request.raw;
  if (raw.complete !== false) return Promise.resolve();
  const cut = () => badRequest('The request body ended before its announced length');
  // The multipart reader also ends its parts when the connection goes away: the events may be past.
  if (raw.destroyed || raw.readableEnded) return Promise.reject(cut());
  return new Promise((resolve, reject) => {
    raw.once('end', resolve);
    raw.once('aborted', () => reject(cut()));
    raw.once('close', () => (raw.complete ? resolve() : reject(cut())));
    raw.once('error', () => reject(cut()));
    // The reader may have let go of the body (busboy is unpiped when it is done): read on to its end.
    raw.resume();
  });
}

/** Whether `--<boundary>--` went by in the body so far (a delimiter split across chunks included). */
function watchCloseDelimiter(request: FastifyRequest): () => boolean {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.headers['content-type'] ?? '');
  const delimiter = Buffer.from(`--${boundary?.[1] ?? boundary?.[2] ?? ''}--`);
  let seen = false;
  let carry = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    if (seen) return;
    const window = Buffer.concat([carry, chunk]);
    seen = window.includes(delimiter);
    carry = window.subarray(Math.max(0, window.length - delimiter.length + 1));
  };
  request.raw.on('data', onData);
  request.raw.once('end', () => request.raw.off('data', onData));
  return () => seen;
}

function unexpectedPart(part: Multipart): AppError {
  if (part.type === 'file') part.file.resume();
  const kind = part.type === 'file' ? 'file' : 'field';
  return badRequest(
    `The multipart body has an unexpected ${kind} part "${part.fieldname}": send one file under the field name file, optionally preceded by one name field`,
  );
}

/** The optional `name` field: 1 to 200 characters of storable text. */
function checkedName(part: MultipartValue): string {
  const value = String(part.value);
  const problem = unstorableText(value);
  if (problem) throw new AppError('unprocessable', `Validation failed: name ${problem}`);
  if (part.valueTruncated || value.trim() === '' || value.length > 200)
    throw new AppError('unprocessable', 'Validation failed: name must be 1 to 200 characters');
  return value;
}

/**
 * @fastify/multipart's limit errors carry a status; busboy's own (no boundary, a body cut before its
 * closing boundary, a malformed part header) carry none. All of them are about the request: never a 500.
 */
function asMultipartError(err: unknown): Error {
  const e = err as { statusCode?: number; message?: string; code?: string };
  if (err instanceof AppError) return err;
  if (e.code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('payloadTooLarge', `file is larger than the upload limit of ${MAX_UPLOAD_BYTES} bytes (20 MB)`);
  return badRequest(`The multipart body cannot be read: ${e.message || 'malformed body'}`);
}

export const assetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.assets;
  await app.register(uploadRoute);

  app.post(
    '/asset',
    {
      config: { auth: 'partner', idempotent: true },
      onResponse: queueVariants(service),
      schema: {
        tags,
        summary: 'Register a file by URL: the service downloads it (http/https, public addresses, at most 100 MB) and stores its own copy',
        security,
        body: RegisterAssetBody,
        response: { 201: Type.Ref(AssetSchema), ...partnerErrors(413) },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireAuth(request);
      return sendCreated(request, reply, organizationId, await service.register(organizationId, request.body));
    },
  );

  app.get(
    '/asset',
    {
      config: { auth: 'partner', publishable: true },
      schema: {
        tags,
        summary:
          'List the organization’s assets, newest first; `mimeType` filters by prefix, `unused=true` keeps those nothing uses. A publishable key lists only assets a public page shows (unused=true is 403 for it)',
        security,
        querystring: ListAssetsQuery,
        response: { 200: Type.Array(Type.Ref(AssetSchema), { headers: PAGE_HEADERS }), ...partnerErrors() },
      },
    },
    async (request, reply) => {
      const page = await service.list(requireAuth(request).organizationId, request.query, isPublishable(request.auth));
      setPageHeaders(request, reply, page);
      return page.items;
    },
  );

  app.get(
    '/asset/:id',
    {
      config: { auth: 'partner', publishable: true },
      schema: {
        tags,
        summary:
          'Read an asset, with `usedBy`: the apartments, gallery items, investment files, downloads items and map logos that use it. Any other asset than one a public page shows is 404 to a publishable key',
        security,
        params: IdParams,
        response: { 200: Type.Ref(AssetWithUsageSchema), ...partnerErrors() },
      },
    },
    async (request) => service.get(requireAuth(request).organizationId, request.params.id, isPublishable(request.auth)),
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
