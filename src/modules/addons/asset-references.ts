import type { Queryable } from '../../db/client.js';

/**
 * Called by asset deletion inside its transaction: removes every add-on child that references the
 * asset (investment files, gallery items, downloads items), clears a map logo that names it, and
 * keeps the remaining siblings' positions contiguous. The add-on tables arrive with the add-ons
 * module, which owns this function.
 */
export async function detachAssetFromAddons(_tx: Queryable, _organizationId: string, _assetId: string): Promise<void> {}
