import { type RawBuilder, sql } from 'kysely';

/**
 * THE rule of which assets a public page shows, and so which a publishable key may read (issue 25;
 * shared/DECISIONS.md "Corrections"). Each entry is one kind of public use of the asset aliased `a`,
 * in `a`'s organization; an asset is public when any of them holds. `GET /api/v1/asset` and
 * `GET /api/v1/asset/{id}` filter on `publiclyShown` for a publishable key, every other asset reads
 * 404 to it. A new public use is one more line here, and nowhere else.
 *
 * Add-on children count while their add-on is enabled: a publishable key reads the add-ons as an
 * anonymous visitor does, and an add-on that is off shows nothing. An apartment shows its assetsIds
 * whatever its status: a publishable key reads every apartment's assetsIds.
 */
const PUBLIC_USES: RawBuilder<boolean>[] = [
  sql`EXISTS (SELECT 1 FROM apartments ap WHERE ap.organization_id = a.organization_id AND ap.assets_ids @> jsonb_build_array(a.id::text))`,
  enabledAddonChild('gallery_items', 'gallery'),
  enabledAddonChild('investment_files', 'investment'),
  enabledAddonChild('downloads_items', 'downloads'),
  sql`EXISTS (SELECT 1 FROM map_configs m JOIN addon_states s ON s.estate_id = m.estate_id AND s.kind = 'map' AND s.enabled
              WHERE m.organization_id = a.organization_id AND m.logo_asset_id = a.id)`,
  // A navigator is read by publishable keys whatever the page's state, so every frame is public.
  sql`EXISTS (SELECT 1 FROM navigator_frames f WHERE f.organization_id = a.organization_id AND f.asset_id = a.id)`,
];

function enabledAddonChild(table: string, kind: string): RawBuilder<boolean> {
  return sql`EXISTS (SELECT 1 FROM ${sql.table(table)} c JOIN addon_states s ON s.estate_id = c.estate_id AND s.kind = ${sql.lit(kind)} AND s.enabled
                     WHERE c.organization_id = a.organization_id AND c.asset_id = a.id)`;
}

/** Whether a public page shows the asset aliased `a` (the one predicate the list and the read use). */
export const publiclyShown: RawBuilder<boolean> = sql<boolean>`(${sql.join(PUBLIC_USES, sql` OR `)})`;
