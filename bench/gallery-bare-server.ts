import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';

// The reference point of bench/gallery.ts: a bare Fastify route answering the exact bytes (and the
// same caching headers) the real gallery read answers, with no database, auth or hooks.
const body = await readFile(process.env.BODY_FILE as string, 'utf8');
const etag = process.env.BODY_ETAG ?? '"x"';
const app = Fastify();
app.get('/health', async () => ({ status: 'ok' }));
app.get('/api/v1/estates/:estateId/gallery', async (_request, reply) =>
  reply.header('cache-control', 'public, max-age=30').header('etag', etag).type('application/json; charset=utf-8').send(body),
);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
