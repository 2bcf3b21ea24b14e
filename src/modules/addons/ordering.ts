import type { Queryable } from '../../db/client.js';
import { AppError } from '../../errors.js';

/** Tables whose rows are ordered siblings; names are constants here, never client input. */
export type OrderedTable =
  | 'investment_sections'
  | 'investment_files'
  | 'gallery_sections'
  | 'gallery_items'
  | 'map_pois'
  | 'downloads_groups'
  | 'downloads_items';

/**
 * One sibling set: the rows of a table under one estate and, for nested children, one parent
 * (a null parent id is the set of ungrouped gallery items). Callers hold the estate row lock.
 */
export interface SiblingSet {
  table: OrderedTable;
  organizationId: string;
  estateId: string;
  parent?: { column: 'section_id' | 'group_id'; id: string | null };
}

function scope(set: SiblingSet): { where: string; params: unknown[] } {
  const params: unknown[] = [set.organizationId, set.estateId];
  let where = 'organization_id = $1 AND estate_id = $2';
  if (set.parent) {
    params.push(set.parent.id);
    where += set.parent.id === null ? ` AND ${set.parent.column} IS NULL AND $3::uuid IS NULL` : ` AND ${set.parent.column} = $3::uuid`;
  }
  return { where, params };
}

export async function siblingIds(db: Queryable, set: SiblingSet): Promise<string[]> {
  const { where, params } = scope(set);
  const rows = await db.query<{ id: string }>(`SELECT id FROM ${set.table} WHERE ${where} ORDER BY position, id`, params);
  return rows.map((r) => r.id);
}

/** The position a new row takes before placeAt moves it: after every existing sibling. */
export async function nextPosition(db: Queryable, set: SiblingSet): Promise<number> {
  const { where, params } = scope(set);
  const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${set.table} WHERE ${where}`, params);
  return rows[0]?.n ?? 0;
}

/** Writes positions 0..n-1 in the given order with one statement (the unique check is deferred). */
export async function writeOrder(db: Queryable, set: SiblingSet, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const { where, params } = scope(set);
  params.push(ids);
  await db.query(
    `UPDATE ${set.table} AS t SET position = v.ord - 1, updated_at = now()
     FROM unnest($${params.length}::uuid[]) WITH ORDINALITY AS v(id, ord)
     WHERE t.id = v.id AND t.position IS DISTINCT FROM (v.ord - 1)::int AND ${where}`,
    params,
  );
}

/** Renumbers the set to 0..n-1 keeping its order, after a delete or a move out. */
export async function compact(db: Queryable, set: SiblingSet): Promise<void> {
  await writeOrder(db, set, await siblingIds(db, set));
}

/** Moves one member of the set to `order` (clamped; undefined keeps it where it is) and renumbers. */
export async function placeAt(db: Queryable, set: SiblingSet, id: string, order: number | undefined): Promise<void> {
  const ids = await siblingIds(db, set);
  if (order !== undefined) {
    const rest = ids.filter((x) => x !== id);
    rest.splice(Math.min(Math.max(order, 0), rest.length), 0, id);
    await writeOrder(db, set, rest);
  } else await writeOrder(db, set, ids);
}

/**
 * Applies a complete order list. A list that misses a sibling, names one twice or names anything
 * else is a 404 and nothing is written.
 */
export async function reorder(db: Queryable, set: SiblingSet, orderedIds: readonly string[], resource: string): Promise<string[]> {
  const current = await siblingIds(db, set);
  const known = new Set(current);
  const seen = new Set<string>();
  for (const raw of orderedIds) {
    const id = raw.toLowerCase();
    if (!known.has(id)) throw new AppError('notFound', `${resource} with id ${raw} not found among the siblings being ordered`);
    if (seen.has(id)) throw new AppError('notFound', `orderedIds names ${resource} ${raw} more than once; list every sibling exactly once`);
    seen.add(id);
  }
  if (seen.size !== current.length) {
    const missing = current.filter((id) => !seen.has(id));
    throw new AppError('notFound', `orderedIds must list every sibling exactly once; missing ${resource} ${missing.slice(0, 5).join(', ')}`);
  }
  const ids = orderedIds.map((id) => id.toLowerCase());
  await writeOrder(db, set, ids);
  return ids;
}
