import { type Insertable, type Selectable, sql } from 'kysely';
import { type FeedPage, changedRows } from '../../db/change-feed.js';
import type { Queryable } from '../../db/client.js';
import { anyUuid, q } from '../../db/query.js';
import type { Inquiries } from '../../db/schema.js';

export type InquiryRow = Selectable<Inquiries>;

export interface InquiryFilter {
  estateId?: string | undefined;
  apartmentId?: string | undefined;
}

function filtered(db: Queryable, organizationId: string, filter: InquiryFilter) {
  let query = q(db).selectFrom('inquiries').where('organizationId', '=', organizationId);
  if (filter.estateId) query = query.where('estateId', '=', filter.estateId);
  if (filter.apartmentId) query = query.where('apartmentIds', '@>', sql<string[]>`ARRAY[${filter.apartmentId}]::uuid[]`);
  return query;
}

export const inquiriesRepository = {
  /**
   * The one lookup without an organization: the public submission names only the estate, and its
   * owner becomes the organization of everything that follows.
   */
  async estateOwner(db: Queryable, estateId: string): Promise<string | undefined> {
    return (await q(db).selectFrom('estates').select('organizationId').where('id', '=', estateId).executeTakeFirst())?.organizationId;
  },

  /** Of the given ids, those that are apartments of the estate. */
  async apartmentsOfEstate(db: Queryable, organizationId: string, estateId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await q(db)
      .selectFrom('apartments')
      .select('id')
      .where('organizationId', '=', organizationId)
      .where('estateId', '=', estateId)
      .where('id', '=', anyUuid(ids))
      .execute();
    return rows.map((r) => r.id);
  },

  insert(db: Queryable, row: Insertable<Inquiries>): Promise<InquiryRow> {
    return q(db).insertInto('inquiries').values(row).returningAll().executeTakeFirstOrThrow();
  },

  list(db: Queryable, organizationId: string, filter: InquiryFilter, offset: number, limit: number): Promise<InquiryRow[]> {
    return filtered(db, organizationId, filter).selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute();
  },

  async count(db: Queryable, organizationId: string, filter: InquiryFilter): Promise<number> {
    return (
      await filtered(db, organizationId, filter)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  },

  get(db: Queryable, organizationId: string, id: string): Promise<InquiryRow | undefined> {
    return q(db).selectFrom('inquiries').selectAll().where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  },

  setStatus(db: Queryable, organizationId: string, id: string, status: string): Promise<InquiryRow | undefined> {
    return q(db)
      .updateTable('inquiries')
      .set({ status, updatedAt: sql`now()` })
      .where('organizationId', '=', organizationId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },

  /** A page of the organization's inquiry change feed: new inquiries and status changes (db/change-feed.ts). */
  changes(db: Queryable, organizationId: string, cursor: string | undefined, limit: number): Promise<FeedPage<'inquiries'>> {
    return changedRows(db, 'inquiries', organizationId, cursor, limit);
  },
};
