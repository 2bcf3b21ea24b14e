import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { q } from '../../db/query.js';
import { emitEvents } from '../webhooks/events.js';
import { type SiblingSet, compact } from './ordering.js';
import { invalidateAddon } from './public-read.js';
import { type AddonKind, touchAddon, touchAddonDerived } from './state.js';
import { addonEventData } from './write.js';

/**
 * Called by asset deletion inside its transaction: removes every add-on child that references the
 * asset (investment files, gallery items, downloads items), clears a map logo that names it, and
 * keeps the remaining siblings' positions contiguous. The asset references are deferred foreign
 * keys, so this may run before or after the asset row is deleted in the same transaction.
 */
export async function detachAssetFromAddons(tx: Queryable, organizationId: string, assetId: string): Promise<void> {
  const db = q(tx);
  // Lock the affected estates in id order, as every add-on write locks its estate first; a
  // concurrent reorder then either finishes before this or sees the children already gone.
  await db
    .selectFrom('estates')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('investmentFiles')
        .select('estateId')
        .where('organizationId', '=', organizationId)
        .where('assetId', '=', assetId)
        .union(eb.selectFrom('galleryItems').select('estateId').where('organizationId', '=', organizationId).where('assetId', '=', assetId))
        .union(eb.selectFrom('downloadsItems').select('estateId').where('organizationId', '=', organizationId).where('assetId', '=', assetId))
        .union(eb.selectFrom('mapConfigs').select('estateId').where('organizationId', '=', organizationId).where('logoAssetId', '=', assetId)),
    )
    .orderBy('id')
    .forUpdate()
    .execute();

  const touched = new Map<string, { estateId: string; kind: AddonKind }>();
  /** Renumbers every sibling set a deleted child left (one per estate and parent) and records the add-on as changed. */
  const settle = async (
    removed: Array<{ estateId: string; parentId: string | null }>,
    kind: AddonKind,
    set: (estateId: string, parentId: string | null) => SiblingSet,
  ) => {
    const sets = new Map<string, SiblingSet>();
    for (const r of removed) {
      sets.set(`${r.estateId}:${r.parentId}`, set(r.estateId, r.parentId));
      touched.set(`${r.estateId}:${kind}`, { estateId: r.estateId, kind });
    }
    for (const s of sets.values()) await compact(tx, s);
  };

  const files = await db
    .deleteFrom('investmentFiles')
    .where('organizationId', '=', organizationId)
    .where('assetId', '=', assetId)
    .returning(['estateId', 'sectionId as parentId'])
    .execute();
  await settle(files, 'investment', (estateId, id) => ({ table: 'investmentFiles', organizationId, estateId, parent: { column: 'sectionId', id } }));

  const items = await db
    .deleteFrom('galleryItems')
    .where('organizationId', '=', organizationId)
    .where('assetId', '=', assetId)
    .returning(['estateId', 'sectionId as parentId'])
    .execute();
  await settle(items, 'gallery', (estateId, id) => ({ table: 'galleryItems', organizationId, estateId, parent: { column: 'sectionId', id } }));

  const downloads = await db
    .deleteFrom('downloadsItems')
    .where('organizationId', '=', organizationId)
    .where('assetId', '=', assetId)
    .returning(['estateId', 'groupId as parentId'])
    .execute();
  await settle(downloads, 'downloads', (estateId, id) => ({ table: 'downloadsItems', organizationId, estateId, parent: { column: 'groupId', id } }));

  const logos = await db
    .updateTable('mapConfigs')
    .set({ logoAssetId: null, updatedAt: sql`now()` })
    .where('organizationId', '=', organizationId)
    .where('logoAssetId', '=', assetId)
    .returning('estateId')
    .execute();
  for (const r of logos) touched.set(`${r.estateId}:map`, { estateId: r.estateId, kind: 'map' });

  for (const { estateId, kind } of touched.values()) {
    await touchAddon(tx, organizationId, estateId, kind);
    // Before commit: the caller owns the transaction. On PGlite no read can run until it ends; on
    // PostgreSQL the notification sent by touchAddon invalidates again at commit.
    invalidateAddon(kind, estateId);
  }
  await emitEvents(
    tx,
    organizationId,
    [...touched.values()].map(({ estateId, kind }) => ({ type: 'addon.updated', data: addonEventData(estateId, kind) })),
  );
}

/**
 * Called when an asset's image fields change after its add-on children were written (its variants and
 * placeholder are made after the upload answers): every add-on embedding it gets a new version, so
 * cached public documents (this instance's, other instances' through the notification, and the
 * verify-mode version check) are rebuilt with the variants. Its edit version stays: nobody edited it.
 */
export async function touchAddonsShowingAsset(tx: Queryable, organizationId: string, assetId: string): Promise<void> {
  const db = q(tx);
  const rows = await db
    .selectFrom('investmentFiles')
    .select(['estateId', sql<AddonKind>`'investment'`.as('kind')])
    .where('organizationId', '=', organizationId)
    .where('assetId', '=', assetId)
    .union(
      db
        .selectFrom('galleryItems')
        .select(['estateId', sql<AddonKind>`'gallery'`.as('kind')])
        .where('organizationId', '=', organizationId)
        .where('assetId', '=', assetId),
    )
    .union(
      db
        .selectFrom('downloadsItems')
        .select(['estateId', sql<AddonKind>`'downloads'`.as('kind')])
        .where('organizationId', '=', organizationId)
        .where('assetId', '=', assetId),
    )
    .union(
      db
        .selectFrom('mapConfigs')
        .select(['estateId', sql<AddonKind>`'map'`.as('kind')])
        .where('organizationId', '=', organizationId)
        .where('logoAssetId', '=', assetId),
    )
    .execute();
  for (const { estateId, kind } of rows) {
    await touchAddonDerived(tx, organizationId, estateId, kind);
    invalidateAddon(kind, estateId);
  }
}
