import { type Kysely, type Selectable, sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { type PlainInsert, type PlainUpdate, insertValues, prepared, q, updateOwned, updateValues } from '../../db/query.js';
import type { DB, Estates } from '../../db/schema.js';

export type EstateRow = Selectable<Estates>;
export type EstatePatch = PlainUpdate<Estates>;

// The first key of the two-key advisory lock; any constant that no other lock in the service uses.
const SLUG_LOCK_NAMESPACE = 724_311_902;

const estates = (db: Queryable) => q(db).selectFrom('estates').selectAll();

const byId = (k: Kysely<DB>, organizationId: string, id: string) =>
  k.selectFrom('estates').selectAll().where('organizationId', '=', organizationId).where('id', '=', id);
const getEstate = prepared(byId);
const lockEstate = prepared((k, organizationId: string, id: string) => byId(k, organizationId, id).forUpdate());

export const estatesRepository = {
  insert(db: Queryable, row: PlainInsert<Estates>): Promise<EstateRow> {
    return q(db).insertInto('estates').values(insertValues<Estates>(row)).returningAll().executeTakeFirstOrThrow();
  },

  async get(db: Queryable, organizationId: string, id: string): Promise<EstateRow | undefined> {
    return (await getEstate(db, organizationId, id))[0];
  },

  /** Reads and locks the estate row: serialises changes to everything that hangs off one estate. */
  async lock(db: Queryable, organizationId: string, id: string): Promise<EstateRow | undefined> {
    return (await lockEstate(db, organizationId, id))[0];
  },

  /** A page of the organization's estates, newest first, and how many match in all. */
  async list(
    db: Queryable,
    organizationId: string,
    opts: { buildingId?: string; offset: number; limit: number },
  ): Promise<{ total: number; rows: EstateRow[] }> {
    let query = q(db).selectFrom('estates as e').selectAll('e').where('e.organizationId', '=', organizationId);
    if (opts.buildingId !== undefined) {
      const buildingId = opts.buildingId;
      query = query.innerJoin('buildings as b', 'b.estateId', 'e.id').where('b.id', '=', buildingId);
    }
    const [counted, rows] = await Promise.all([
      q(db)
        .selectFrom(query.as('m'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      query.orderBy('e.createdAt', 'desc').orderBy('e.id', 'desc').offset(opts.offset).limit(opts.limit).execute(),
    ]);
    return { total: Number(counted.n), rows };
  },

  /**
   * Serialises slug generation for one base slug until the transaction ends: two estates named alike
   * (in any organizations) would otherwise both pick the same free suffix and one would fail.
   */
  async lockSlugBase(db: Queryable, base: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(${SLUG_LOCK_NAMESPACE}, hashtext(${base}))`.execute(q(db));
  },

  /** Slugs are unique across organizations, compared case-insensitively (estates_slug_uq). */
  findBySlug(db: Queryable, slug: string): Promise<{ id: string; slug: string; name: string } | undefined> {
    return q(db).selectFrom('estates').select(['id', 'slug', 'name']).where(sql<string>`lower(slug)`, '=', slug.toLowerCase()).executeTakeFirst();
  },

  async slugsLike(db: Queryable, base: string): Promise<string[]> {
    const slug = sql<string>`lower(slug)`;
    const rows = await q(db)
      .selectFrom('estates')
      .select(slug.as('slug'))
      .where((eb) => eb.or([eb(slug, '=', base), eb(slug, 'like', `${base}-%`)]))
      .execute();
    return rows.map((r) => r.slug);
  },

  /** Changes the fields given (and updatedAt); with none, reads the row. */
  update(db: Queryable, organizationId: string, id: string, fields: EstatePatch): Promise<EstateRow | undefined> {
    const values = updateValues<Estates>(fields);
    if (Object.keys(values).length === 0) return this.get(db, organizationId, id);
    return updateOwned(db, 'estates', organizationId, id, values);
  },

  /** Operator access: the dashboard-managed fields of any organization's estate. */
  async updateAnyOrganization(db: Queryable, id: string, fields: EstatePatch): Promise<EstateRow | undefined> {
    const row = await estates(db).where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return this.update(db, row.organizationId, id, fields);
  },
};
