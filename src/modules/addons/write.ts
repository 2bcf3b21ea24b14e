import type { Database, Queryable } from '../../db/client.js';
import { AppError, notFound } from '../../errors.js';
import { isUuid } from '../../ids.js';
import { requireEstate } from '../estates/service.js';
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
    return fn(tx);
  });
  // After commit, before the response: the writer's next read is never served the old document.
  return result.finally(() => invalidateAddon(kind, estateId.toLowerCase()));
}

type ChildTable = 'investment_sections' | 'investment_files' | 'gallery_sections' | 'gallery_items' | 'map_pois' | 'downloads_groups' | 'downloads_items';

/** A child row of this estate and organization, or the 404 naming it. */
export async function requireChild<R = Record<string, unknown>>(
  db: Queryable,
  table: ChildTable,
  resource: string,
  organizationId: string,
  estateId: string,
  id: string,
  extra?: { column: 'section_id' | 'group_id'; id: string },
): Promise<R> {
  const params: unknown[] = [organizationId, estateId, id];
  let sql = `SELECT * FROM ${table} WHERE organization_id = $1 AND estate_id = $2 AND id = $3`;
  if (extra) {
    params.push(extra.id);
    sql += ` AND ${extra.column} = $4`;
  }
  const row = isUuid(id) ? (await db.query<R>(sql, params))[0] : undefined;
  if (!row) throw notFound(resource, id);
  return row;
}

export const unprocessableField = (field: string, rule: string) => new AppError('unprocessable', `Validation failed: ${field} ${rule}`);
