import { type Kysely, type Selectable, sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { type PlainUpdate, columnName, prepared, q, updateOwned, updateValues } from '../../db/query.js';
import type { Apartments, DB } from '../../db/schema.js';

export type ApartmentRow = Selectable<Apartments>;
type NullableKeys<T> = { [K in keyof T]-?: null extends T[K] ? K : never }[keyof T];
type Stored = Omit<ApartmentRow, 'createdAt' | 'updatedAt'>;
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

export const apartmentsRepository = {
  /**
   * Inserts many apartments in one statement: the rows travel as one JSON array expanded by
   * jsonb_populate_recordset, so 5,000 apartments are one round trip (and one parameter) inside the
   * caller's transaction.
   */
  insertMany(db: Queryable, apartments: NewApartment[]): Promise<ApartmentRow[]> {
    const columns = [...new Set(apartments.flatMap((a) => Object.keys(a)))] as Array<keyof NewApartment>;
    const records = apartments.map((a) => Object.fromEntries(columns.map((c) => [columnName(c), a[c] ?? null])));
    return q(db)
      .insertInto('apartments')
      .columns(columns)
      .expression((eb) =>
        eb.selectFrom(sql<NewApartment>`jsonb_populate_recordset(NULL::apartments, ${JSON.stringify(records)}::jsonb)`.as('r')).select(columns),
      )
      .returningAll()
      .execute();
  },

  async get(db: Queryable, organizationId: string, id: string, lock = false): Promise<ApartmentRow | undefined> {
    return (await (lock ? lockApartment : getApartment)(db, organizationId, id))[0];
  },

  async list(
    db: Queryable,
    organizationId: string,
    filter: { buildingId?: string; estateId?: string; offset: number; limit: number | null },
  ): Promise<{ count: number; rows: ApartmentRow[] }> {
    let query = q(db).selectFrom('apartments').where('organizationId', '=', organizationId);
    if (filter.buildingId !== undefined) query = query.where('buildingId', '=', filter.buildingId);
    if (filter.estateId !== undefined) query = query.where('estateId', '=', filter.estateId);
    const { count } = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const rows = await query.selectAll().orderBy('createdAt').orderBy('id').offset(filter.offset).limit(filter.limit).execute();
    return { count, rows };
  },

  /** Changes the fields given (and updatedAt); with none, reads the row. */
  update(db: Queryable, organizationId: string, id: string, fields: ApartmentPatch): Promise<ApartmentRow | undefined> {
    const values = updateValues<Apartments>(fields);
    if (Object.keys(values).length === 0) return this.get(db, organizationId, id);
    return updateOwned(db, 'apartments', organizationId, id, values);
  },
};
