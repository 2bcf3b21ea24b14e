import type { Selectable } from 'kysely';
import type { Database, Queryable } from '../../db/client.js';
import { q } from '../../db/query.js';
import type { DB } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import { isUuid } from '../../ids.js';
import { requireEstate } from '../estates/service.js';
import { emitEvent } from '../webhooks/events.js';
import type { OrderedTable, ParentColumn } from './ordering.js';
import { invalidateAddon } from './public-read.js';
import { type AddonKind, touchAddon } from './state.js';

/**
 * Every add-on write: one transaction that locks the estate row first (serialising all changes to
 * the estate's sibling sets, so positions stay 0..n-1 under concurrency) and bumps the add-on's
 * version so public reads see the change at once.
 */
export function addonWrite<T>(
  db: Database,
  organizationId: string,
  estateId: string,
  kind: AddonKind,
  fn: (tx: Queryable) => Promise<T>,
  enabled?: boolean,
): Promise<T> {
  const result = db.transaction(async (tx) => {
    await requireEstate(tx, organizationId, estateId, true);
    await touchAddon(tx, organizationId, estateId, kind, enabled);
    const result = await fn(tx);
    await emitEvent(tx, organizationId, 'addon.updated', addonEventData(estateId, kind));
    return result;
  });
  // After commit, before the response: the writer's next read is never served the old document.
  return result.finally(() => invalidateAddon(kind, estateId.toLowerCase()));
}

/** `data` of an addon.updated event: the estate and the add-on whose public document changed (a CDN purge signal). */
export const addonEventData = (estateId: string, addon: AddonKind) => ({ estateId: estateId.toLowerCase(), addon });

/** A child row of this estate and organization (and of `parent`, when given), or the 404 naming it. */
export async function requireChild<T extends OrderedTable>(
  db: Queryable,
  table: T,
  resource: string,
  organizationId: string,
  estateId: string,
  id: string,
  parent?: { column: ParentColumn<T>; id: string },
): Promise<Selectable<DB[T]>> {
  if (!isUuid(id)) throw notFound(resource, id);
  let query = q(db)
    .selectFrom(table as OrderedTable)
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('estateId', '=', estateId)
    .where('id', '=', id);
  if (parent) query = query.where(parent.column as 'sectionId' | 'groupId', '=', parent.id);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound(resource, id);
  return row as Selectable<DB[T]>;
}

export const unprocessableField = (field: string, rule: string) => new AppError('unprocessable', `Validation failed: ${field} ${rule}`);
