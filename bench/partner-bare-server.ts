import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

// The reference point of bench/partner.ts: bare Fastify routes that each run
// one statement on the same engine as the real server, with no auth, hooks, second query or mapping:
// - GET /api/v1/apartment/:id       one primary-key SELECT
// - POST /api/v1/apartment          one INSERT of the row sent (RETURNING *)
// - GET /api/v1/apartment?buildingId one json_agg statement, its text answered as it is
// PostgreSQL: the real server's database (DATABASE_URL). PGlite: a database of its own in DB_DIR (the
// server holds its data directory), migrated, holding copies of the apartments in APARTMENTS_FILE (a
// JSON array as the API answers them), with foreign keys off (no organization or building rows).
const db = process.env.DATABASE_URL
  ? await openDatabase({ databaseUrl: process.env.DATABASE_URL })
  : await openDatabase({ dataDir: process.env.DB_DIR as string });
if (!process.env.DATABASE_URL) {
  await migrate(db);
  await db.exec('ALTER TABLE apartments DISABLE TRIGGER ALL');
  const apartments = JSON.parse(await readFile(process.env.APARTMENTS_FILE as string, 'utf8')) as Array<Record<string, unknown>>;
  const snake = (k: string) =>
    k
      .replace(/([A-Z])/g, '_$1')
      .replace(/([a-z])(\d)/g, '$1_$2')
      .toLowerCase();
  const records = apartments.map(({ building: _, ...a }) => ({
    ...Object.fromEntries(Object.entries(a).map(([k, v]) => [snake(k), v])),
    organization_id: process.env.ORGANIZATION_ID,
  }));
  // Only the columns the API shows: the others (the change feed's position) keep their defaults.
  const columns = Object.keys(records[0] ?? { id: null }).join(', ');
  await db.query(`INSERT INTO apartments (${columns}) SELECT ${columns} FROM jsonb_populate_recordset(NULL::apartments, $1::jsonb)`, [JSON.stringify(records)]);
}
const organizationId = process.env.ORGANIZATION_ID as string;
const estateId = process.env.ESTATE_ID as string;

const app = Fastify({ bodyLimit: 1024 * 1024 });
app.get('/health', async () => ({ status: 'ok' }));
app.get<{ Params: { id: string } }>('/api/v1/apartment/:id', async (request, reply) => {
  const [row] = await db.query('SELECT * FROM apartments WHERE id = $1', [request.params.id]);
  if (!row) return reply.code(404).send({ error: 'not found' });
  return row;
});
app.post<{ Body: { buildingId: string; name: string; priceCents?: number; description?: string; apartmentData?: unknown } }>(
  '/api/v1/apartment',
  async (request, reply) => {
    const b = request.body;
    const [row] = await db.query(
      `INSERT INTO apartments (id, organization_id, building_id, estate_id, name, price_cents, description, apartment_data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb) RETURNING *`,
      [randomUUID(), organizationId, b.buildingId, estateId, b.name, b.priceCents ?? null, b.description ?? null, JSON.stringify(b.apartmentData ?? {})],
    );
    return reply.code(201).send(row);
  },
);
app.get<{ Querystring: { buildingId: string } }>('/api/v1/apartment', async (request, reply) => {
  const [row] = await db.query<{ body: string }>(
    'SELECT coalesce(json_agg(a ORDER BY a.created_at, a.id), $2::json)::text AS body FROM apartments a WHERE a.building_id = $1',
    [request.query.buildingId, '[]'],
  );
  return reply.type('application/json; charset=utf-8').send(row!.body);
});
const close = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void close());
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
