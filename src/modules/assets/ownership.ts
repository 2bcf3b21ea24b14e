import type { Queryable } from '../../db/client.js';
import { notFound } from '../../errors.js';
import { isUuid } from '../../ids.js';
import { assetsRepository } from './repository.js';

/**
 * Checks that every id names an asset of the organization; the first that does not is a 404,
 * whether it is missing or another organization's (the body does not say which).
 */
export async function requireOwnedAssets(db: Queryable, organizationId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) throw notFound('Asset', bad);
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const found = new Set(await assetsRepository.ownedIds(db, organizationId, unique));
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound('Asset', missing);
}
