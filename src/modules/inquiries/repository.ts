import { type Insertable, type Selectable, sql } from 'kysely';
import { type FeedPage, changedRows } from '../../db/change-feed.js';
import type { Queryable } from '../../db/client.js';
import { anyUuid, q } from '../../db/query.js';
import type { Inquiries } from '../../db/schema.js';
import { type INQUIRY_SORTS, INQUIRY_STATUSES } from './schemas.js';

export type InquiryRow = Selectable<Inquiries>;

export interface InquiryFilter {
  estateId?: string | undefined;
  apartmentId?: string | undefined;
  status?: string[] | undefined;
  q?: string | undefined;
}

export type InquiryOrder = (typeof INQUIRY_SORTS)[number];

/** `%`, `_` and the escape character itself taken literally by LIKE (whose default escape is the backslash). */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A search that is only phone characters (digits, spaces, + ( ) . - /) with a digit is also looked for among the phone numbers' digits. */
const PHONE_FRAGMENT = /^[0-9 +().\-/]*[0-9][0-9 +().\-/]*$/;

/** The SQL of each sort key; status sorts in the order of its workflow (NEW first), not alphabetically. */
const SORT_KEYS = {
  createdAt: sql`created_at`,
  updatedAt: sql`updated_at`,
  name: sql`lower(name)`,
  status: sql`array_position(CAST(${[...INQUIRY_STATUSES]} AS text[]), status)`,
} as const;

function filtered(db: Queryable, organizationId: string, filter: InquiryFilter) {
  let query = q(db).selectFrom('inquiries').where('organizationId', '=', organizationId);
  if (filter.estateId) query = query.where('estateId', '=', filter.estateId);
  if (filter.apartmentId) query = query.where('apartmentIds', '@>', sql<string[]>`ARRAY[${filter.apartmentId}]::uuid[]`);
  if (filter.status) query = query.where('status', '=', sql<string>`ANY(CAST(${filter.status} AS text[]))`);
  const search = filter.q;
  if (search !== undefined && search !== '') {
    const pattern = `%${escapeLike(search)}%`;
    const digits = PHONE_FRAGMENT.test(search) ? search.replace(/[^0-9]/g, '') : undefined;
    query = query.where((eb) =>
      eb.or([
        eb('name', 'ilike', pattern),
        eb('email', 'ilike', pattern),
        ...(digits ? [eb(sql<string>`regexp_replace(phone_number, '[^0-9]', '', 'g')`, 'like', `%${digits}%`)] : []),
      ]),
    );
  }
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
  /** Which of `ids` are apartments of the estate, and their status (a HIDDEN one is not on its page). */
  async apartmentsOfEstate(db: Queryable, organizationId: string, estateId: string, ids: string[]): Promise<Array<{ id: string; status: string }>> {
    if (ids.length === 0) return [];
    return q(db)
      .selectFrom('apartments')
      .select(['id', 'status'])
      .where('organizationId', '=', organizationId)
      .where('estateId', '=', estateId)
      .where('id', '=', anyUuid(ids))
      .execute();
  },

  insert(db: Queryable, row: Insertable<Inquiries>): Promise<InquiryRow> {
    return q(db).insertInto('inquiries').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** A page in `order` (a leading `-` reverses it); ties by id in the same direction. */
  list(db: Queryable, organizationId: string, filter: InquiryFilter, order: InquiryOrder, offset: number, limit: number): Promise<InquiryRow[]> {
    const dir = sql.raw(order.startsWith('-') ? 'DESC' : 'ASC');
    const key = SORT_KEYS[order.replace(/^-/, '') as keyof typeof SORT_KEYS];
    return filtered(db, organizationId, filter).selectAll().orderBy(sql`${key} ${dir}, id ${dir}`).offset(offset).limit(limit).execute();
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
