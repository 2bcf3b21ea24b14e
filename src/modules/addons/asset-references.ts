import type { Queryable } from '../../db/client.js';
import { type SiblingSet, compact } from './ordering.js';
import { invalidateAddon } from './public-read.js';
import { type AddonKind, touchAddon } from './state.js';

interface Removed {
  estate_id: string;
  parent_id: string | null;
}

/**
 * Called by asset deletion inside its transaction: removes every add-on child that references the
 * asset (investment files, gallery items, downloads items), clears a map logo that names it, and
 * keeps the remaining siblings' positions contiguous. The asset references are deferred foreign
 * keys, so this may run before or after the asset row is deleted in the same transaction.
 */
export async function detachAssetFromAddons(tx: Queryable, organizationId: string, assetId: string): Promise<void> {
  // Lock the affected estates in id order, as every add-on write locks its estate first; a
  // concurrent reorder then either finishes before this or sees the children already gone.
  await tx.query(
    `SELECT id FROM estates WHERE organization_id = $1 AND id IN (
       SELECT estate_id FROM investment_files WHERE organization_id = $1 AND asset_id = $2
       UNION SELECT estate_id FROM gallery_items WHERE organization_id = $1 AND asset_id = $2
       UNION SELECT estate_id FROM downloads_items WHERE organization_id = $1 AND asset_id = $2
       UNION SELECT estate_id FROM map_configs WHERE organization_id = $1 AND logo_asset_id = $2)
     ORDER BY id FOR UPDATE`,
    [organizationId, assetId],
  );

  const touched = new Map<string, { estateId: string; kind: AddonKind }>();
  const detach = async (table: 'investment_files' | 'gallery_items' | 'downloads_items', parent: 'section_id' | 'group_id', kind: AddonKind) => {
    const removed = await tx.query<Removed>(`DELETE FROM ${table} WHERE organization_id = $1 AND asset_id = $2 RETURNING estate_id, ${parent} AS parent_id`, [
      organizationId,
      assetId,
    ]);
    const sets = new Map<string, SiblingSet>();
    for (const r of removed) {
      sets.set(`${r.estate_id}:${r.parent_id}`, { table, organizationId, estateId: r.estate_id, parent: { column: parent, id: r.parent_id } });
      touched.set(`${r.estate_id}:${kind}`, { estateId: r.estate_id, kind });
    }
    for (const set of sets.values()) await compact(tx, set);
  };
  await detach('investment_files', 'section_id', 'investment');
  await detach('gallery_items', 'section_id', 'gallery');
  await detach('downloads_items', 'group_id', 'downloads');

  const logos = await tx.query<{ estate_id: string }>(
    'UPDATE map_configs SET logo_asset_id = NULL, updated_at = now() WHERE organization_id = $1 AND logo_asset_id = $2 RETURNING estate_id',
    [organizationId, assetId],
  );
  for (const r of logos) touched.set(`${r.estate_id}:map`, { estateId: r.estate_id, kind: 'map' });

  for (const { estateId, kind } of touched.values()) {
    await touchAddon(tx, organizationId, estateId, kind);
    // Before commit: the caller owns the transaction. On PGlite no read can run until it ends; on
    // PostgreSQL the notification sent by touchAddon invalidates again at commit.
    invalidateAddon(kind, estateId);
  }
}
