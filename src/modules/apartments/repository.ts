import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import { type FeedPage, changedRows } from '../../db/change-feed.js';
import type { Database, Queryable } from '../../db/client.js';
import { isoText, rowJson } from '../../db/json-sql.js';
import { type PlainUpdate, anyUuid, columnName, compiledWith, prepared, q, updateOwned, updateValues } from '../../db/query.js';
import type { Apartments, DB } from '../../db/schema.js';
import type { BuildingRow } from '../buildings/repository.js';
import { BuildingInline } from '../buildings/schemas.js';
import { InStatementEvent, type OutboxParams, type OutboxResult, outboxSql } from '../webhooks/in-statement.js';
import { ApartmentSchema, type ApartmentSort } from './schemas.js';

export type ApartmentRow = Selectable<Apartments>;
type NullableKeys<T> = { [K in keyof T]-?: null extends T[K] ? K : never }[keyof T];
type Stored = Omit<ApartmentRow, 'createdAt' | 'updatedAt' | 'changeXid'>;
/** A new apartment with every stored field present (null where it has no value), as the service makes one. */
export type ApartmentRecord = Stored;
/**
 * A new apartment. Bulk inserts expand JSON records, where a missing key is NULL rather than the
 * column default: every NOT NULL column is required here (APARTMENT_DEFAULTS fills them), a nullable
 * one may be left out and is NULL.
 */
export type NewApartment = Omit<Stored, NullableKeys<Stored>> & Partial<Pick<Stored, NullableKeys<Stored>>>;
export type ApartmentPatch = PlainUpdate<Apartments>;

/** Defaults of a new apartment (DECISIONS) for every NOT NULL field an item left out; nullable fields default to null. */
export const APARTMENT_DEFAULTS = {
  isPromoted: false,
  status: 'ACTIVE',
  floorPlanUrls: [],
  floorPlanPreviewUrls: [],
  floorPlan3dPreviewUrls: [],
  isPriceNet: false,
  apartmentType: 'RESIDENTIAL',
  apartmentData: {},
  showPrice: true,
  assetsIds: [],
  preferredAngles: [],
  priceChangeHistory: [],
} satisfies Omit<NewApartment, 'id' | 'organizationId' | 'name' | 'buildingId' | 'estateId'>;

const byId = (k: Kysely<DB>, organizationId: string, id: string) =>
  k.selectFrom('apartments').selectAll().where('organizationId', '=', organizationId).where('id', '=', id);
const getApartment = prepared(byId);
const lockApartment = prepared((k, organizationId: string, id: string) => byId(k, organizationId, id).forUpdate());
const anyText = (values: readonly string[]) => sql<string>`ANY(CAST(${values} AS text[]))`;
/** Columns a write never sets from a row: the key, the owner, the creation time, and what the database stamps. */
const FIXED = new Set(['id', 'organizationId', 'createdAt', 'updatedAt', 'changeXid']);
/** Rows as one JSON array of snake_case records, expanded by jsonb_populate_recordset in the statement. */
const recordsOf = (rows: object[], columns: string[]) =>
  JSON.stringify(rows.map((r) => Object.fromEntries(columns.map((c) => [columnName(c), (r as Record<string, unknown>)[c] ?? null]))));

/** A list's apartment documents, built in SQL (the list answer is JSON text): each building's once (`bj`). */
const buildingJson = rowJson(BuildingInline, 'b');
const listedApartmentJson = rowJson(ApartmentSchema, 'a', { building: sql.ref('bj.doc') });
/**
 * The same document as a publishable key sees it, masked by the statement as publicView (src/http/publishable.ts)
 * masks an answer: no price history, integration fields or hidden price. A test compares the two.
 */
const publicApartmentJson = rowJson(ApartmentSchema, 'a', {
  building: sql.ref('bj.doc'),
  priceChangeHistory: sql`'[]'::json`,
  externalId: sql`NULL::text`,
  source: sql`NULL::text`,
  lastSynchronizedAt: sql`NULL::text`,
  priceCents: sql`CASE WHEN a.show_price AND a.status <> 'HIDDEN' THEN a.price_cents END`,
});
/** A new apartment's document as its `apartment.created` event carries it (the answer's shape). */
const createdApartmentJson = rowJson(ApartmentSchema, 'a', { building: buildingJson });

/**
 * A building row's version: its `xmin`, the transaction that wrote this version of the row. Every
 * UPDATE writes a new version (a new xmin); the row locks that apartments' foreign keys take do not.
 */
const buildingVersion = sql<string>`CAST(b.xmin AS text)`;
const getVersionedBuilding = prepared((k, organizationId: string, id: string) =>
  k.selectFrom('buildings as b').selectAll('b').select(buildingVersion.as('version')).where('b.organizationId', '=', organizationId).where('b.id', '=', id),
);

/** An apartment row with its building's row, read by one statement. */
export interface ApartmentWithBuilding {
  apartment: ApartmentRow;
  building: BuildingRow;
}
/**
 * The building's columns are selected beside the apartment's as `building.<property>`; one row is
 * then taken apart. (A read by id is mapped in JS, its answer cached: an unprepared statement building the
 * whole document cost more to plan than the row it read.)
 */
const BUILDING_PROPERTIES = ['organizationId', ...Object.keys(BuildingInline.properties)];
const BUILDING_PREFIX = 'building.';
function withItsBuilding(row: Record<string, unknown>): ApartmentWithBuilding {
  const apartment: Record<string, unknown> = {};
  const building: Record<string, unknown> = {};
  for (const key in row) {
    if (key.startsWith(BUILDING_PREFIX)) building[key.slice(BUILDING_PREFIX.length)] = row[key];
    else apartment[key] = row[key];
  }
  return { apartment: apartment as ApartmentRow, building: building as BuildingRow };
}
const buildingColumns = sql.join(BUILDING_PROPERTIES.map((p) => sql`${sql.ref(`b.${columnName(p)}`)} AS ${sql.raw(`"${BUILDING_PREFIX}${p}"`)}`));

const getWithBuilding = prepared((k, organizationId: string, id: string) =>
  k
    .selectFrom('apartments as a')
    .innerJoin('buildings as b', 'b.id', 'a.buildingId')
    .selectAll('a')
    .select((eb) => BUILDING_PROPERTIES.map((p) => eb.ref(`b.${p}` as 'b.id').as(`${BUILDING_PREFIX}${p}`)))
    .where('a.organizationId', '=', organizationId)
    .where('a.id', '=', id),
);

/** Every column a new apartment sets (createdAt and updatedAt are the database's `now()`). */
const NEW_COLUMNS = ['organizationId', ...Object.keys(ApartmentSchema.properties).filter((p) => !['building', 'createdAt', 'updatedAt'].includes(p))] as Array<
  keyof NewApartment
>;

/**
 * The create statement (apartmentsRepository.createWithBuilding), compiled once per shape: with the
 * event's writes (`queues`) or with only the guard that no endpoint subscribes.
 */
function createStatement(queues: boolean) {
  const columns = sql.join(NEW_COLUMNS.map((c) => sql.ref(columnName(c))));
  const values = sql.join(NEW_COLUMNS.map((c) => (c === 'estateId' ? sql.ref('b.estate_id') : sql.ref(`r.${columnName(c)}`))));
  return prepared(
    (
      k,
      record: string,
      buildingId: string,
      organizationId: string,
      type: OutboxParams['type'],
      types: string[],
      eventId: string,
      timestamp: string,
      actor: string,
      deliveryIds: string[],
      capacity: number,
    ) => {
      const outbox = outboxSql({ organizationId, type, types, eventId, timestamp, actor, deliveryIds, capacity }, queues);
      return compiledWith(
        k,
        sql<Record<string, unknown>>`
        WITH ${outbox.endpoints},
        b AS (SELECT *, xmin FROM buildings WHERE organization_id = ${organizationId} AND id = ${buildingId}),
        a AS (
          INSERT INTO apartments (${columns})
          SELECT ${values} FROM b, jsonb_populate_record(NULL::apartments, CAST(${record} AS jsonb)) AS r
          WHERE ${outbox.guard}
          RETURNING *
        )${outbox.writes(createdApartmentJson, sql`a JOIN b ON b.id = a.building_id`)}
        SELECT a.id, ${isoText(sql.ref('a.last_synchronized_at'))} AS last_synchronized_at, ${isoText(sql.ref('a.created_at'))} AS created_at,
          ${isoText(sql.ref('a.updated_at'))} AS updated_at, ${buildingVersion} AS building_version, ${outbox.columns}
        FROM (SELECT 1) AS one LEFT JOIN a ON true LEFT JOIN b ON b.id = a.building_id`,
      );
    },
  );
}
const createQueuing = createStatement(true);
const createAlone = createStatement(false);

/** NEW_COLUMNS with their column names, but the estate (the building's, set by the statement). */
const NEW_COLUMN_NAMES = NEW_COLUMNS.filter((c): c is Exclude<(typeof NEW_COLUMNS)[number], 'estateId'> => c !== 'estateId').map(
  (c) => [c, columnName(c)] as const,
);

export interface ApartmentFilter {
  buildingId?: string;
  estateId?: string;
  status?: string[];
  apartmentType?: string[];
  minPrice?: number;
  maxPrice?: number;
  rooms?: number;
  floor?: number;
  externalId?: string;
  q?: string;
  /**
   * A publishable key's list: a price hidden by `showPrice: false` or status HIDDEN is no price to filter
   * or sort by, and the documents are masked as publicView masks them.
   */
  publicPrices?: boolean;
  sort: ApartmentSort;
  offset: number;
  limit: number | null;
}

/** `%`, `_` and the escape character itself taken literally by LIKE (whose default escape is the backslash). */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The SQL of each sort key, over the apartments aliased `a`. */
const SORT_KEYS = {
  createdAt: sql`a.created_at`,
  updatedAt: sql`a.updated_at`,
  priceCents: sql`a.price_cents`,
  name: sql`lower(a.name)`,
} as const;

/**
 * The list filters beyond organization, building and estate, as SQL conditions on `a`: every value
 * is a bound parameter. apartmentData keys are matched by containment (`@>`), so a stored document
 * of any shape never makes a cast fail.
 */
/**
 * The price a list filters and sorts by: for a publishable key, none where the price is hidden
 * (`showPrice: false`, or a HIDDEN apartment), as publicView hides it in the answer.
 */
const listedPrice = (filter: ApartmentFilter) =>
  filter.publicPrices ? sql`(CASE WHEN a.show_price AND a.status <> 'HIDDEN' THEN a.price_cents END)` : sql`a.price_cents`;

function listConditions(filter: ApartmentFilter): RawBuilder<boolean>[] {
  const where: RawBuilder<boolean>[] = [];
  const price = listedPrice(filter);
  if (filter.status !== undefined) where.push(sql`a.status = ${anyText(filter.status)}`);
  if (filter.apartmentType !== undefined) where.push(sql`a.apartment_type = ${anyText(filter.apartmentType)}`);
  if (filter.minPrice !== undefined) where.push(sql`${price} >= ${filter.minPrice}`);
  if (filter.maxPrice !== undefined) where.push(sql`${price} <= ${filter.maxPrice}`);
  if (filter.rooms !== undefined) where.push(sql`a.apartment_data @> CAST(${JSON.stringify({ rooms: filter.rooms })} AS jsonb)`);
  if (filter.floor !== undefined) where.push(sql`a.apartment_data @> CAST(${JSON.stringify({ floor: filter.floor })} AS jsonb)`);
  if (filter.externalId !== undefined) where.push(sql`a.external_id = ${filter.externalId}`);
  if (filter.q !== undefined) where.push(sql`a.name ILIKE ${`%${escapeLike(filter.q)}%`}`);
  return where;
}

/** ORDER BY of a list sort over `key` (the key's SQL, or the column it was selected as) and `id`: ties by id in the same direction, no price last. */
function orderOf(sort: ApartmentSort, key: RawBuilder<unknown>, id: RawBuilder<unknown>): RawBuilder<unknown> {
  const dir = sql.raw(sort.startsWith('-') ? 'DESC' : 'ASC');
  return sql`${key} ${dir} NULLS LAST, ${id} ${dir}`;
}

export const apartmentsRepository = {
  /**
   * Inserts many apartments in one statement: the rows travel as one JSON array expanded by
   * jsonb_populate_recordset, so 5,000 apartments are one round trip (and one parameter) inside the
   * caller's transaction.
   */
  insertMany(db: Queryable, apartments: NewApartment[]): Promise<ApartmentRow[]> {
    const columns = [...new Set(apartments.flatMap((a) => Object.keys(a)))] as Array<keyof NewApartment>;
    return q(db)
      .insertInto('apartments')
      .columns(columns)
      .expression((eb) =>
        eb.selectFrom(sql<NewApartment>`jsonb_populate_recordset(NULL::apartments, ${recordsOf(apartments, columns)}::jsonb)`.as('r')).select(columns),
      )
      .returningAll()
      .execute();
  },

  async get(db: Queryable, organizationId: string, id: string, lock = false): Promise<ApartmentRow | undefined> {
    return (await (lock ? lockApartment : getApartment)(db, organizationId, id))[0];
  },

  /**
   * Inserts one apartment into a building of the organization and writes its `apartment.created` event
   * to the outbox, in one statement (no transaction: one statement is atomic). It answers only what the
   * database decides: the timestamps and the version of the building (whose estate is the apartment's).
   * Every other field is the value sent, so the row is put together here rather than read back: a
   * document built in SQL, or 30 columns and the building's read back and parsed, cost about a fifth of
   * the bare INSERT's throughput (issue 14, docs/performance.md). `created` is undefined when the
   * organization has no such building, or when the statement found more subscribed endpoints than
   * `event` could take (nothing is written then; see src/modules/webhooks/in-statement.ts).
   */
  async createWithBuilding(
    db: Queryable,
    apartment: ApartmentRecord,
    event: InStatementEvent,
  ): Promise<{ created: { apartment: Omit<ApartmentRow, 'changeXid'>; buildingVersion: string } | undefined; outbox: OutboxResult }> {
    const record: Record<string, unknown> = {};
    for (const [property, column] of NEW_COLUMN_NAMES) record[column] = apartment[property];
    const statement = event.queues ? createQueuing : createAlone;
    const e = event.params;
    const [row] = await statement(
      db,
      JSON.stringify(record),
      apartment.buildingId,
      e.organizationId,
      e.type,
      e.types,
      e.eventId,
      e.timestamp,
      e.actor,
      e.deliveryIds,
      e.capacity,
    );
    const outbox = InStatementEvent.result(row!);
    if (row!.id == null) return { created: undefined, outbox };
    const stamped = row as Pick<ApartmentRow, 'lastSynchronizedAt' | 'createdAt' | 'updatedAt'> & { buildingVersion: string };
    // The database's values over the ones sent: the timestamps (as GET writes them, formatted by the statement), and lastSynchronizedAt as stored.
    return {
      created: {
        apartment: { ...apartment, lastSynchronizedAt: stamped.lastSynchronizedAt, createdAt: stamped.createdAt, updatedAt: stamped.updatedAt },
        buildingVersion: stamped.buildingVersion,
      },
      outbox,
    };
  },

  /** A building of the organization with its row version (see `buildingVersion`). */
  async versionedBuilding(db: Queryable, organizationId: string, id: string): Promise<{ building: BuildingRow; version: string } | undefined> {
    const [row] = await getVersionedBuilding(db, organizationId, id);
    if (!row) return undefined;
    const { version, ...building } = row;
    return { building, version };
  },

  /** One apartment of the organization with its building, by one statement. */
  async getWithBuilding(db: Queryable, organizationId: string, id: string): Promise<ApartmentWithBuilding | undefined> {
    const [row] = await getWithBuilding(db, organizationId, id);
    return row && withItsBuilding(row as Record<string, unknown>);
  },

  /**
   * The whole list answer, `{count, items}`, as JSON text built by one statement, with the count
   * beside it (X-Total-Count): 15,000 apartments never exist as rows or objects in this process, only
   * as the UTF-8 bytes sent (on PGlite never even a string). The aggregate takes the page in the order of its sorted subquery, with no join or
   * other processing between them (PostgreSQL's documented way to feed an ordered aggregate): sorting
   * the 15,000 built documents a second time inside json_agg cost 7-20% of the statement.
   */
  async listJson(db: Database, organizationId: string, filter: ApartmentFilter): Promise<{ total: number; body: Buffer }> {
    const statement = this.listStatement(db, organizationId, filter);
    // The answer's bytes as the database wrote them: never a JS string (see Database.queryText). Planned
    // with sequential scans off: with stale statistics (one building when last analysed, say) the count
    // scanned every apartment of every organization; the indexes on the organization, building and
    // estate serve every list, whatever the statistics say (issue 29).
    const [total, body] = (await db.queryText(statement.sql, statement.parameters, { preferIndexes: true }))!;
    return { total: Number(total!.toString()), body: body! };
  },

  /** The statement of listJson, compiled (its plan is tested: test/integration/list-plan.test.ts). */
  listStatement(db: Database, organizationId: string, filter: ApartmentFilter): { sql: string; parameters: readonly unknown[] } {
    const k = q(db);
    const { buildingId, estateId } = filter;
    const conditions = listConditions(filter);
    let count = k.selectFrom('apartments as a').where('a.organizationId', '=', organizationId);
    let buildings = k.selectFrom('buildings as b').where('b.organizationId', '=', organizationId);
    // A list of one building or estate builds each of its buildings' documents once (MATERIALIZED): a CTE
    // referenced once is otherwise inlined, and the join rebuilt the building's document for every
    // apartment (15,000 times for one building's list, a quarter of the statement on PGlite). An
    // organization-wide list keeps the inlined join: it builds a document per matching apartment, less
    // than every building's when few match (a lookup by externalId).
    const once = buildingId !== undefined || estateId !== undefined;
    if (buildingId !== undefined) buildings = buildings.where('b.id', '=', buildingId);
    if (estateId !== undefined) buildings = buildings.where('b.estateId', '=', estateId);
    let page = k
      .with(
        (cte) => (once ? cte('bj').materialized() : cte('bj')),
        () => buildings.select(['b.id', buildingJson.as('doc')]),
      )
      .selectFrom('apartments as a')
      .innerJoin('bj', 'bj.id', 'a.buildingId')
      .where('a.organizationId', '=', organizationId);
    if (buildingId !== undefined) {
      count = count.where('a.buildingId', '=', buildingId);
      page = page.where('a.buildingId', '=', buildingId);
    }
    if (estateId !== undefined) {
      count = count.where('a.estateId', '=', estateId);
      page = page.where('a.estateId', '=', estateId);
    }
    for (const condition of conditions) {
      count = count.where(condition);
      page = page.where(condition);
    }
    const sortKey = filter.sort.replace(/^-/, '') as keyof typeof SORT_KEYS;
    const key = sortKey === 'priceCents' ? listedPrice(filter) : SORT_KEYS[sortKey];
    const rows = page
      .select((filter.publicPrices ? publicApartmentJson : listedApartmentJson).as('doc'))
      .orderBy(orderOf(filter.sort, key, sql`a.id`))
      .offset(filter.offset)
      .limit(filter.limit);
    const n = count.select((eb) => eb.fn.countAll().as('n'));
    // Written as text, not json_build_object/json_agg ("count" : 3, items joined by ", "): the answer is
    // compact with the schema's keys in order, the bytes of every other answer (issue 38).
    const statement = sql`
      SELECT c.n::text AS total,
        '{"count":' || c.n || ',"items":' || coalesce((SELECT '[' || string_agg(p.doc::text, ',') || ']' FROM (${rows}) AS p), '[]') || '}' AS body
      FROM (${n}) AS c`.compile(k);
    return { sql: statement.sql, parameters: statement.parameters };
  },

  /** Changes the fields given (and updatedAt); with none, reads the row. */
  update(db: Queryable, organizationId: string, id: string, fields: ApartmentPatch): Promise<ApartmentRow | undefined> {
    const values = updateValues<Apartments>(fields);
    if (Object.keys(values).length === 0) return this.get(db, organizationId, id);
    return updateOwned(db, 'apartments', organizationId, id, values);
  },

  /** The organization's apartments with these external ids, locked until the transaction ends. */
  lockByExternalIds(db: Queryable, organizationId: string, externalIds: string[]): Promise<ApartmentRow[]> {
    if (externalIds.length === 0) return Promise.resolve([]);
    return q(db)
      .selectFrom('apartments')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('externalId', '=', anyText(externalIds))
      .orderBy('id')
      .forUpdate()
      .execute();
  },

  /** The organization's apartments named by id or by external id, locked until the transaction ends. */
  lockByKeys(db: Queryable, organizationId: string, ids: string[], externalIds: string[]): Promise<ApartmentRow[]> {
    return q(db)
      .selectFrom('apartments')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where((eb) => eb.or([eb('id', '=', anyUuid(ids)), eb('externalId', '=', anyText(externalIds))]))
      .orderBy('id')
      .forUpdate()
      .execute();
  },

  /** Which apartment of the organization holds each of these external ids. */
  async externalIdOwners(db: Queryable, organizationId: string, externalIds: string[]): Promise<Map<string, string>> {
    if (externalIds.length === 0) return new Map();
    const rows = await q(db)
      .selectFrom('apartments')
      .select(['id', 'externalId'])
      .where('organizationId', '=', organizationId)
      .where('externalId', '=', anyText(externalIds))
      .execute();
    return new Map(rows.map((r) => [r.externalId!, r.id]));
  },

  /**
   * Writes many apartments of the organization in one statement, each to the whole state given (rows
   * read and locked earlier in the transaction, changed by planPatch), and stamps updatedAt.
   */
  async updateMany(db: Queryable, organizationId: string, rows: ApartmentRow[]): Promise<ApartmentRow[]> {
    if (rows.length === 0) return [];
    const columns = Object.keys(rows[0]!).filter((c) => !FIXED.has(c));
    const set = sql.join(columns.map((c) => sql`${sql.id(columnName(c))} = r.${sql.id(columnName(c))}`));
    const result = await sql<ApartmentRow>`
      UPDATE apartments a SET ${set}, updated_at = now()
      FROM jsonb_populate_recordset(NULL::apartments, CAST(${recordsOf(rows, ['id', ...columns])} AS jsonb)) r
      WHERE a.organization_id = ${organizationId} AND a.id = r.id
      RETURNING a.*`.execute(q(db));
    return result.rows;
  },

  /**
   * Sets lastSynchronizedAt alone, leaving updatedAt: a sync that found nothing to change is not a
   * change (the change feed does not list it).
   */
  async stampSynchronized(db: Queryable, organizationId: string, stamps: Array<{ id: string; lastSynchronizedAt: string | null }>): Promise<void> {
    if (stamps.length === 0) return;
    await sql`
      UPDATE apartments a SET last_synchronized_at = r.at
      FROM jsonb_to_recordset(CAST(${JSON.stringify(stamps.map((s) => ({ id: s.id, at: s.lastSynchronizedAt })))} AS jsonb)) AS r(id uuid, at timestamptz)
      WHERE a.organization_id = ${organizationId} AND a.id = r.id`.execute(q(db));
  },

  /** A page of the organization's change feed (db/change-feed.ts). */
  changes(db: Queryable, organizationId: string, cursor: string | undefined, limit: number): Promise<FeedPage<'apartments'>> {
    return changedRows(db, 'apartments', organizationId, cursor, limit);
  },
};
