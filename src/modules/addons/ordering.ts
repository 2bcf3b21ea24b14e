import { type Expression, type SqlBool, expressionBuilder, sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { q } from '../../db/query.js';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../errors.js';

/** Tables whose rows are ordered siblings; names are constants here, never client input. */
export type OrderedTable = 'investmentSections' | 'investmentFiles' | 'gallerySections' | 'galleryItems' | 'mapPois' | 'downloadsGroups' | 'downloadsItems';

/** The parent column of a nested child table (never for top-level tables). */
export type ParentColumn<T extends OrderedTable> = Extract<keyof DB[T], 'sectionId' | 'groupId'>;

/**
 * One sibling set: the rows of a table under one estate and, for nested children, one parent
 * (a null parent id is the set of ungrouped gallery items). Callers hold the estate row lock.
 */
export type SiblingSet = {
  [T in OrderedTable]: { table: T; organizationId: string; estateId: string } & ([ParentColumn<T>] extends [never]
    ? { parent?: undefined }
    : { parent: { column: ParentColumn<T>; id: string | null } });
}[OrderedTable];

function scope(set: SiblingSet): Expression<SqlBool> {
  const eb = expressionBuilder<DB, OrderedTable>();
  const where = [eb('organizationId', '=', set.organizationId), eb('estateId', '=', set.estateId)];
  if (set.parent) where.push(set.parent.id === null ? eb(set.parent.column, 'is', null) : eb(set.parent.column, '=', set.parent.id));
  return eb.and(where);
}

export async function siblingIds(db: Queryable, set: SiblingSet): Promise<string[]> {
  const rows = await q(db).selectFrom(set.table).select('id').where(scope(set)).orderBy('position').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** The position a new row takes before placeAt moves it: after every existing sibling. */
export async function nextPosition(db: Queryable, set: SiblingSet): Promise<number> {
  const row = await q(db)
    .selectFrom(set.table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(scope(set))
    .executeTakeFirst();
  return row?.n ?? 0;
}

/** Writes positions 0..n-1 in the given order with one statement (the unique check is deferred). */
export async function writeOrder(db: Queryable, set: SiblingSet, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const v = sql<{ id: string; ord: number }>`unnest(${ids}::uuid[]) WITH ORDINALITY`.as<'v'>(sql`v(id, ord)`);
  await q(db)
    .updateTable(set.table)
    .from(v)
    .set((eb) => ({ position: eb('v.ord', '-', 1), updatedAt: sql`now()` }))
    .whereRef(`${set.table}.id`, '=', 'v.id')
    .where(`${set.table}.position`, 'is distinct from', (eb) => eb.cast<number>(eb('v.ord', '-', 1), 'integer'))
    .where(scope(set))
    .execute();
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
