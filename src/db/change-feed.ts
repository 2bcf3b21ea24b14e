import { type Selectable, sql } from 'kysely';
import { badRequest } from '../errors.js';
import type { Queryable } from './client.js';
import { q } from './query.js';
import type { DB } from './schema.js';

/**
 * Change feeds (docs/decisions.md, "Change feeds"). Each row carries `change_xid`, the id of the
 * transaction that last created or changed it (a default and a trigger, migrations/0006_sync.sql).
 * A page takes rows in (change_xid, id) order after the cursor, but only those whose transaction is
 * older than every transaction still running when the page's snapshot was taken
 * (`pg_snapshot_xmin(pg_current_snapshot())`): such a transaction has ended and can add nothing more,
 * and any later change gets a larger transaction id than that bound. So a transaction that commits
 * after a younger one is held back until it is visible, never skipped, and a cursor never passes a
 * change that is still to come.
 */

export type FeedTable = 'apartments' | 'inquiries';

interface Position {
  xid: string;
  id: string;
}

const START: Position = { xid: '0', id: '00000000-0000-0000-0000-000000000000' };
const CURSOR = /^v1\.(\d{1,20})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export const encodeCursor = (p: Position): string => Buffer.from(`v1.${p.xid}.${p.id}`).toString('base64url');

function decodeCursor(cursor: string | undefined): Position {
  if (cursor === undefined) return START;
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match || BigInt(match[1]!) >= 2n ** 63n) throw badRequest('cursor is not a nextCursor this API gave out; omit it to start from the beginning');
  return { xid: match[1]!, id: match[2]! };
}

export interface FeedPage<T extends FeedTable> {
  rows: Array<Selectable<DB[T]>>;
  nextCursor: string;
}

/** The organization's rows of `table` created or changed after `cursor`, oldest change first, each once. */
export async function changedRows<T extends FeedTable>(
  db: Queryable,
  table: T,
  organizationId: string,
  cursor: string | undefined,
  limit: number,
): Promise<FeedPage<T>> {
  const after = decodeCursor(cursor);
  // One table's type stands for both: the query names only columns both tables have.
  const rows = (await q(db)
    .selectFrom(table as 'inquiries')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where(sql<boolean>`change_xid < pg_snapshot_xmin(pg_current_snapshot())`)
    .where(sql<boolean>`(change_xid, id) > (CAST(${after.xid} AS xid8), CAST(${after.id} AS uuid))`)
    .orderBy('changeXid')
    .orderBy('id')
    .limit(limit)
    .execute()) as unknown as Array<Selectable<DB[T]> & { changeXid: string; id: string }>;
  const last = rows.at(-1);
  return { rows, nextCursor: encodeCursor(last ? { xid: String(last.changeXid), id: last.id } : after) };
}
