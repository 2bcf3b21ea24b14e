import Fastify from 'fastify';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

// The reference point of bench/apartment-read.ts: a bare Fastify route that runs one primary-key
// SELECT on the same engine as the real server, with no auth, hooks, second query or mapping.
// PostgreSQL: the real server's database (DATABASE_URL). PGlite: a database of its own in DB_DIR (the
// server holds its data directory), migrated, holding a copy of the apartment (APARTMENT_JSON).
const db = process.env.DATABASE_URL
  ? await openDatabase({ databaseUrl: process.env.DATABASE_URL })
  : await openDatabase({ dataDir: process.env.DB_DIR as string });
if (!process.env.DATABASE_URL) {
  await migrate(db);
  const apartment = JSON.parse(process.env.APARTMENT_JSON as string) as Record<string, unknown>;
  const snake = (k: string) =>
    k
      .replace(/([A-Z])/g, '_$1')
      .replace(/([a-z])(\d)/g, '$1_$2')
      .toLowerCase();
  const record = Object.fromEntries(Object.entries(apartment).map(([k, v]) => [snake(k), v]));
  record.organization_id = record.id; // no organization row: foreign keys are off for this one insert
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL session_replication_role = replica');
    await tx.query('INSERT INTO apartments SELECT * FROM jsonb_populate_record(NULL::apartments, $1::jsonb)', [JSON.stringify(record)]);
  });
}
const app = Fastify();
app.get('/health', async () => ({ status: 'ok' }));
app.get<{ Params: { id: string } }>('/api/v1/apartment/:id', async (request, reply) => {
  const [row] = await db.query('SELECT * FROM apartments WHERE id = $1', [request.params.id]);
  if (!row) return reply.code(404).send({ error: 'not found' });
  return row;
});
const close = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void close());
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
