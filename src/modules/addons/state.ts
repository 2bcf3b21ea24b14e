import { type Selectable, sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { q } from '../../db/query.js';
import type { AddonStates } from '../../db/schema.js';

export type AddonKind = 'investment' | 'gallery' | 'map' | 'downloads';

/**
 * Records a write to an add-on: creates its record on first use (off) and bumps its version, which
 * public reads use as cache key, and its edit version, which the dashboard's forms carry (a stale one
 * is 412). `enabled` is only changed when given.
 */
export async function touchAddon(db: Queryable, organizationId: string, estateId: string, kind: AddonKind, enabled?: boolean): Promise<void> {
  await q(db)
    .insertInto('addonStates')
    .values({ organizationId, estateId, kind, enabled: enabled ?? false })
    .onConflict((oc) =>
      oc.columns(['estateId', 'kind']).doUpdateSet((eb) => ({
        enabled: enabled ?? eb.ref('addonStates.enabled'),
        version: eb('addonStates.version', '+', 1),
        editVersion: eb('addonStates.editVersion', '+', 1),
        updatedAt: sql`now()`,
      })),
    )
    .execute();
  await notifyAddon(db, organizationId, estateId, kind);
}

/**
 * Records that what an add-on's public document shows changed without anyone writing the add-on (an
 * image's variants were made): its version moves, so kept documents are rebuilt, and its edit version
 * stays, so a form opened before is not refused as stale. Only an existing record is touched (an add-on
 * that shows an asset has one).
 */
export async function touchAddonDerived(db: Queryable, organizationId: string, estateId: string, kind: AddonKind): Promise<void> {
  await q(db)
    .updateTable('addonStates')
    .set((eb) => ({ version: eb('addonStates.version', '+', 1), updatedAt: sql`now()` }))
    .where('organizationId', '=', organizationId)
    .where('estateId', '=', estateId)
    .where('kind', '=', kind)
    .execute();
  await notifyAddon(db, organizationId, estateId, kind);
}

async function notifyAddon(db: Queryable, organizationId: string, estateId: string, kind: AddonKind): Promise<void> {
  // Delivered at commit (never for a rolled-back write) to every instance's listener.
  await q(db)
    .selectNoFrom((eb) => eb.fn('pg_notify', [eb.val(ADDON_CHANNEL), eb.val(`${kind}:${estateId.toLowerCase()}:${organizationId}`)]).as('notified'))
    .execute();
}

/** NOTIFY channel of add-on changes; payload `<kind>:<estateId>:<organizationId>`. */
export const ADDON_CHANNEL = 'addon_changed';

/** The add-on (`<kind>:<estateId>`) and the organization an add-on notification names. */
export function addonOfPayload(payload: string): { addon: string; organizationId: string | undefined } {
  const [kind = '', estateId = '', organizationId] = payload.split(':');
  return { addon: `${kind}:${estateId}`, organizationId };
}

export type PublicAddonState = Pick<Selectable<AddonStates>, 'organizationId' | 'enabled' | 'version'>;

/**
 * The one lookup that is not scoped by organization: an anonymous read names only the estate, so
 * this resolves its owner; every query after it is scoped by the organization it returns.
 */
export async function findAddonState(db: Queryable, estateId: string, kind: AddonKind): Promise<PublicAddonState | undefined> {
  const row = await q(db)
    .selectFrom('estates as e')
    .leftJoin('addonStates as s', (join) => join.onRef('s.estateId', '=', 'e.id').on('s.kind', '=', kind))
    .select(['e.organizationId', 's.enabled', 's.version'])
    .where('e.id', '=', estateId)
    .executeTakeFirst();
  if (!row) return undefined;
  // An estate whose add-on was never written has no state row: off, version 0.
  return { organizationId: row.organizationId, enabled: row.enabled ?? false, version: row.version ?? 0 };
}
