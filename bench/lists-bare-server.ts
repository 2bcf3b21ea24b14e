import Fastify from 'fastify';
import { openDatabase } from '../src/db/client.js';

// The reference point of bench/lists.ts: a bare Fastify route answering one building's apartments, each
// with its building embedded, from one json_agg statement, with no auth, hooks, count, cache or
// compression. PostgreSQL: the real server's database (DATABASE_URL), the same pool size. PGlite: a copy
// of the server's data directory (DB_DIR), in a worker thread as the server runs it.
const db = process.env.DATABASE_URL
  ? await openDatabase({ databaseUrl: process.env.DATABASE_URL })
  : await openDatabase({ dataDir: process.env.DB_DIR as string, thread: true });

const LIST = `
  SELECT coalesce(json_agg(d), '[]')::text AS body FROM (
    SELECT a.*, row_to_json(b) AS building FROM apartments a JOIN buildings b ON b.id = a.building_id
    WHERE a.building_id = $1 ORDER BY a.created_at, a.id LIMIT $2
  ) AS d`;

const app = Fastify({ bodyLimit: 1024 * 1024 });
app.get('/health', async () => ({ status: 'ok' }));
app.get<{ Querystring: { buildingId: string; limit?: string } }>('/api/v1/apartment', async (request, reply) => {
  const [body] = (await db.queryText(LIST, [request.query.buildingId, request.query.limit ?? null]))!;
  return reply.type('application/json; charset=utf-8').send(body);
});
const close = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void close());
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
