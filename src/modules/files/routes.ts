import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorBody } from '../../errors.js';
import { variantKey } from '../assets/images/variant-keys.js';
import { isActiveType } from '../assets/sniff.js';
import { parseRange } from './range.js';

const FileParams = Type.Object({
  organizationId: Type.String({ maxLength: 100 }),
  assetId: Type.String({ maxLength: 100 }),
});

/** `filename*` carries the real name; the ASCII fallback drops anything that could break the header. */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

const etagMatches = (header: string | undefined, etag: string) =>
  header !== undefined && (header.trim() === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag));

/**
 * Serves asset bytes at the `src` URLs the service hands out. Keys never change (a new file is a
 * new asset), so responses are immutable; active types (SVG, HTML, XML, JS) are attachments under
 * a sandbox CSP so they cannot run as the service's origin.
 */
export const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const assets = app.services.assets;
  const storage = app.deps.storage;

  app.get(
    '/files/:organizationId/:assetId',
    {
      // Files are sent as they are stored: images, PDFs and archives are compressed already, and Range
      // answers are byte ranges of the stored file.
      config: { auth: 'none', compress: false },
      schema: {
        tags: ['Assets'],
        summary: 'The bytes of an asset (the `src` URL), or of a variant (`<assetId>-w<width>`, made first if it is not yet); supports Range and If-None-Match',
        params: FileParams,
      },
    },
    async (request, reply) => {
      const { organizationId, assetId } = request.params;
      const file = await assets.findFile(organizationId, assetId);
      const missing = () =>
        reply
          .code(404)
          .type('application/json; charset=utf-8')
          .send(errorBody(404, `File ${organizationId}/${assetId} not found`));
      if (!file) return missing();
      const { row, variant } = file;

      // A variant is made from the original by a fixed encoder, so the original's hash names it too.
      const etag = variant ? `"${row.sha256}-w${variant.width}"` : `"${row.sha256}"`;
      const size = variant?.sizeBytes ?? row.sizeBytes;
      const mimeType = variant ? 'image/webp' : row.mimeType;
      const key = variant ? variantKey(row.storageKey, variant.width) : row.storageKey;
      const name = variant ? `${row.name.replace(/\.[^.]*$/, '')}-${variant.width}w.webp` : row.name;
      reply
        .header('etag', etag)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('accept-ranges', 'bytes')
        .header('x-content-type-options', 'nosniff')
        .header('content-type', mimeType);
      if (isActiveType(mimeType)) {
        reply.header('content-disposition', disposition('attachment', name)).header('content-security-policy', "default-src 'none'; sandbox");
      } else {
        reply
          .header('content-disposition', disposition('inline', name))
          .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox");
      }
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();

      const ifRange = request.headers['if-range'];
      const range = ifRange !== undefined && ifRange !== etag ? { kind: 'full' as const } : parseRange(request.headers.range, size);
      if (range.kind === 'unsatisfiable') {
        return reply
          .code(416)
          .header('content-range', `bytes */${size}`)
          .type('application/json; charset=utf-8')
          .send(errorBody(416, 'The requested range is outside the file'));
      }
      try {
        if (range.kind === 'partial') {
          const stream = await storage.get(key, { start: range.start, end: range.end });
          return reply
            .code(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
            .header('content-length', String(range.end - range.start + 1))
            .send(stream);
        }
        const stream = await storage.get(key);
        return reply.header('content-length', String(size)).send(stream);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          for (const h of ['etag', 'cache-control', 'content-disposition', 'content-security-policy', 'accept-ranges']) reply.removeHeader(h);
          return missing();
        }
        throw err;
      }
    },
  );
};
