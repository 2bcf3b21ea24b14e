import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../errors.js';
import { negotiateEncoding, sendCompressible } from '../../../http/compression.js';
import { ifNoneMatchHits } from '../../../http/etag.js';
import { ASSET_PREFIX, pageAsset } from '../assets.js';
import { type AssetFile, PAGE_ASSETS_PREFIX, pageAssets } from '../client-assets.js';

/** A hashed name never changes content: a year, immutable (RFC 8246). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** /embed.js keeps its URL across releases: an hour, then a day of stale-while-revalidate. */
export const EMBED_CACHE = 'public, max-age=3600, stale-while-revalidate=86400';

function send(request: FastifyRequest, reply: FastifyReply, file: AssetFile, cacheControl: string): FastifyReply {
  reply
    .header('content-type', file.type)
    .header('cache-control', cacheControl)
    .header('etag', file.etag)
    .header('vary', 'accept-encoding')
    // Loaded by other sites' pages (the embed) and by the page inside their iframes.
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('access-control-allow-origin', '*');
  const match = request.headers['if-none-match'];
  if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) return reply.code(304).send();
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? file[encoding] : file.identity);
}

/**
 * The public page's static files: `GET /assets/page/<name>.<hash>.(js|css)` (immutable) and
 * `GET /embed.js` (and an empty `GET /favicon.ico`). Each is compressed at build time (brotli 11, gzip 9) and kept in memory; no key,
 * left out of the OpenAPI document (not JSON). Also the files hashed at start (`GET /p/_assets/<name>.<hash>.<ext>`,
 * assets.ts: the dashboard's stylesheet and islands, the shape editor).
 */
export const pageAssetRoutes: FastifyPluginAsync = async (app) => {
  const assets = pageAssets();
  const config = { auth: 'none' as const, compress: false as const };
  app.get<{ Params: { name: string } }>(`${PAGE_ASSETS_PREFIX}:name`, { schema: { hide: true }, config }, async (request, reply) => {
    const file = assets.files.get(request.params.name);
    if (!file) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'No such page asset' });
    return send(request, reply, file, IMMUTABLE);
  });
  app.get('/embed.js', { schema: { hide: true }, config }, async (request, reply) => send(request, reply, assets.embed, EMBED_CACHE));
  // Browsers ask for /favicon.ico on every page that names no icon; a 404 is a console error on the
  // public page (and in Lighthouse's best practices). No content, cached a day.
  app.get('/favicon.ico', { schema: { hide: true }, config }, async (_request, reply) =>
    reply.code(204).header('cache-control', 'public, max-age=86400').send(),
  );
  // The files hashed at start (assets.ts: the dashboard's and the shape editor's): a year, immutable.
  app.get<{ Params: { file: string } }>(
    `${ASSET_PREFIX}:file`,
    { config: { auth: 'none' }, schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      const asset = pageAsset(request.params.file);
      if (!asset) throw new AppError('notFound', 'No such file');
      reply.header('cache-control', IMMUTABLE);
      reply.header('etag', asset.etag);
      reply.header('x-content-type-options', 'nosniff');
      if (ifNoneMatchHits(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
      return sendCompressible(reply, asset.body, asset.type);
    },
  );
};
