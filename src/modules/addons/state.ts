import type { Queryable } from '../../db/client.js';

export type AddonKind = 'investment' | 'gallery' | 'map' | 'downloads';

/**
 * Records a write to an add-on: creates its record on first use (off) and bumps its version, which
 * public reads use as cache key and ETag. `enabled` is only changed when given.
 */
export async function touchAddon(db: Queryable, organizationId: string, estateId: string, kind: AddonKind, enabled?: boolean): Promise<void> {
  await db.query(
    `INSERT INTO addon_states (organization_id, estate_id, kind, enabled) VALUES ($1, $2, $3, coalesce($4::boolean, false))
     ON CONFLICT (estate_id, kind) DO UPDATE
       SET enabled = coalesce($4::boolean, addon_states.enabled), version = addon_states.version + 1, updated_at = now()`,
    [organizationId, estateId, kind, enabled ?? null],
  );
  // Delivered at commit (never for a rolled-back write) to every instance's listener.
  await db.query('SELECT pg_notify($1, $2)', [ADDON_CHANNEL, `${kind}:${estateId.toLowerCase()}`]);
}

/** NOTIFY channel of add-on changes; payload `<kind>:<estateId>`. */
export const ADDON_CHANNEL = 'addon_changed';

export interface PublicAddonState {
  organizationId: string;
  enabled: boolean;
  version: number;
}

/**
 * The one lookup that is not scoped by organization: an anonymous read names only the estate, so
 * this resolves its owner; every query after it is scoped by the organization it returns.
 */
export async function findAddonState(db: Queryable, estateId: string, kind: AddonKind): Promise<PublicAddonState | undefined> {
  const rows = await db.query<{ organization_id: string; enabled: boolean | null; version: number | null }>(
    `SELECT e.organization_id, s.enabled, s.version FROM estates e
     LEFT JOIN addon_states s ON s.estate_id = e.id AND s.kind = $2 WHERE e.id = $1`,
    [estateId, kind],
  );
  const row = rows[0];
  if (!row) return undefined;
  return { organizationId: row.organization_id, enabled: row.enabled ?? false, version: row.version ?? 0 };
}
