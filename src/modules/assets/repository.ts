import { type Insertable, type Selectable, sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { anyUuid, q } from '../../db/query.js';
import type { Assets } from '../../db/schema.js';

export type AssetRow = Selectable<Assets>;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export const assetsRepository = {
  insert(db: Queryable, row: Insertable<Assets>): Promise<AssetRow> {
    return q(db).insertInto('assets').values(row).returningAll().executeTakeFirstOrThrow();
  },

  get(db: Queryable, organizationId: string, id: string): Promise<AssetRow | undefined> {
    return q(db).selectFrom('assets').selectAll().where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  },

  list(db: Queryable, organizationId: string, opts: { mimePrefix?: string | undefined; offset: number; limit: number }): Promise<AssetRow[]> {
    let query = q(db).selectFrom('assets').selectAll().where('organizationId', '=', organizationId);
    if (opts.mimePrefix !== undefined) {
      // LIKE's default escape character is the backslash, which escapeLike puts before % and _.
      query = query.where('mimeType', 'like', `${escapeLike(opts.mimePrefix.toLowerCase())}%`);
    }
    return query.orderBy('createdAt', 'desc').orderBy('id', 'desc').offset(opts.offset).limit(opts.limit).execute();
  },

  /** Of the given ids, those that are assets of the organization. */
  async ownedIds(db: Queryable, organizationId: string, ids: readonly string[]): Promise<string[]> {
    const rows = await q(db).selectFrom('assets').select('id').where('organizationId', '=', organizationId).where('id', '=', anyUuid(ids)).execute();
    return rows.map((r) => r.id);
  },

  /** Which of these storage keys have an asset row (the orphan sweep keeps those). */
  async existingKeys(db: Queryable, keys: readonly string[]): Promise<string[]> {
    const rows = await q(db).selectFrom('assets').select('storageKey').where('storageKey', '=', sql<string>`ANY(CAST(${keys} AS text[]))`).execute();
    return rows.map((r) => r.storageKey);
  },

  delete(db: Queryable, organizationId: string, id: string): Promise<AssetRow | undefined> {
    return q(db).deleteFrom('assets').where('organizationId', '=', organizationId).where('id', '=', id).returningAll().executeTakeFirst();
  },
};
