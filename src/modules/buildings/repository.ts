import { type Kysely, type Selectable, sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { type PlainInsert, type PlainUpdate, anyUuid, insertValues, prepared, q, updateOwned, updateValues } from '../../db/query.js';
import type { Buildings, DB } from '../../db/schema.js';

export type BuildingRow = Selectable<Buildings>;

const byId = (k: Kysely<DB>, organizationId: string, id: string) =>
  k.selectFrom('buildings').selectAll().where('organizationId', '=', organizationId).where('id', '=', id);
const getBuilding = prepared(byId);
const lockBuilding = prepared((k, organizationId: string, id: string) => byId(k, organizationId, id).forUpdate());

export const buildingsRepository = {
  async insert(db: Queryable, row: PlainInsert<Buildings>): Promise<BuildingRow> {
    return q(db).insertInto('buildings').values(insertValues<Buildings>(row)).returningAll().executeTakeFirstOrThrow();
  },

  async get(db: Queryable, organizationId: string, id: string): Promise<BuildingRow | undefined> {
    return (await getBuilding(db, organizationId, id))[0];
  },

  /** Reads and locks the building row until the transaction ends. */
  async lock(db: Queryable, organizationId: string, id: string): Promise<BuildingRow | undefined> {
    return (await lockBuilding(db, organizationId, id))[0];
  },

  async listByEstates(db: Queryable, organizationId: string, estateIds: string[]): Promise<BuildingRow[]> {
    if (estateIds.length === 0) return [];
    return q(db)
      .selectFrom('buildings')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('estateId', '=', anyUuid(estateIds))
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
  },

  /** A page of one estate's buildings, oldest first (as the estate embeds them), and how many it has in all. */
  async pageOfEstate(db: Queryable, organizationId: string, estateId: string, offset: number, limit: number): Promise<{ total: number; rows: BuildingRow[] }> {
    const ofEstate = q(db).selectFrom('buildings').where('organizationId', '=', organizationId).where('estateId', '=', estateId);
    const [counted, rows] = await Promise.all([
      ofEstate.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ofEstate.selectAll().orderBy('createdAt').orderBy('id').offset(offset).limit(limit).execute(),
    ]);
    return { total: Number(counted.n), rows };
  },

  /** The buildings with these ids, in one query. */
  listByIds(db: Queryable, organizationId: string, ids: string[]): Promise<BuildingRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return q(db).selectFrom('buildings').selectAll().where('organizationId', '=', organizationId).where('id', '=', anyUuid(ids)).execute();
  },

  /** Changes the fields given (and updatedAt); with none, reads the row. Undefined when the organization has no such building. */
  update(db: Queryable, organizationId: string, id: string, fields: PlainUpdate<Buildings>): Promise<BuildingRow | undefined> {
    const values = updateValues<Buildings>(fields);
    if (Object.keys(values).length === 0) return this.get(db, organizationId, id);
    return updateOwned(db, 'buildings', organizationId, id, values);
  },
};
