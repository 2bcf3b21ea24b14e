import type { Queryable } from '../../src/db/client.js';

/**
 * Invariants of the stored data; each query returns the rows that break one. After any sequence of
 * requests, good or hostile, every query must return nothing.
 */
export const INTEGRITY_QUERIES: Record<string, string> = {
  'building in another organization than its estate': `
    SELECT b.id FROM buildings b JOIN estates e ON e.id = b.estate_id WHERE b.organization_id <> e.organization_id`,
  'apartment in another organization or estate than its building': `
    SELECT a.id FROM apartments a JOIN buildings b ON b.id = a.building_id
    WHERE a.organization_id <> b.organization_id OR a.estate_id <> b.estate_id`,
  'navigator of another organization than its estate': `
    SELECT n.id FROM navigators n JOIN estates e ON e.id = n.estate_id WHERE n.organization_id <> e.organization_id`,
  'nested navigator under a navigator of another estate, or for a building of another estate': `
    SELECT n.id FROM navigators n JOIN navigators p ON p.id = n.parent_id LEFT JOIN buildings b ON b.id = n.reference_id
    WHERE p.estate_id <> n.estate_id OR b.id IS NULL OR b.estate_id <> n.estate_id`,
  'navigator frame showing an asset of another organization, or a missing one': `
    SELECT f.id FROM navigator_frames f LEFT JOIN assets a ON a.id = f.asset_id WHERE a.id IS NULL OR a.organization_id <> f.organization_id`,
  'navigator shape pointing outside its navigator’s estate': `
    SELECT s.id FROM navigator_shapes s JOIN navigator_frames f ON f.id = s.frame_id JOIN navigators n ON n.id = f.navigator_id
    LEFT JOIN apartments ap ON ap.id = s.apartment_id LEFT JOIN buildings b ON b.id = s.building_id
    WHERE s.organization_id <> n.organization_id OR coalesce(ap.estate_id, b.estate_id) IS DISTINCT FROM n.estate_id`,
  'navigator shape that is not normalised path data': `
    SELECT s.id FROM navigator_shapes s WHERE s.shape !~ '^M[MLHVCSQTAZ0-9 .e+-]*$'`,
  'estate pointing at a missing navigator': `
    SELECT e.id FROM estates e WHERE e.navigator_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM navigators n WHERE n.id = e.navigator_id)`,
  ...Object.fromEntries(
    (
      [
        ['investment_sections', 'estate_id'],
        ['investment_files', 'section_id'],
        ['gallery_sections', 'estate_id'],
        ['gallery_items', 'estate_id, section_id'],
        ['map_pois', 'estate_id'],
        ['downloads_groups', 'estate_id'],
        ['downloads_items', 'group_id'],
      ] as const
    ).flatMap(([table, siblings]) => [
      [
        `${table}: positions not 0..n-1 within (${siblings})`,
        `SELECT min(id::text) AS id FROM ${table} GROUP BY ${siblings} HAVING min(position) <> 0 OR max(position) <> count(*) - 1`,
      ],
      [
        `${table}: another organization than its estate`,
        `SELECT c.id FROM ${table} c JOIN estates e ON e.id = c.estate_id WHERE c.organization_id <> e.organization_id`,
      ],
    ]),
  ),
  ...Object.fromEntries(
    (['investment_files', 'gallery_items', 'downloads_items'] as const).map((table) => [
      `${table}: an asset of another organization, or a missing one`,
      `SELECT c.id FROM ${table} c LEFT JOIN assets a ON a.id = c.asset_id WHERE a.id IS NULL OR a.organization_id <> c.organization_id`,
    ]),
  ),
  'map logo of another organization': `
    SELECT m.estate_id AS id FROM map_configs m JOIN assets a ON a.id = m.logo_asset_id WHERE a.organization_id <> m.organization_id`,
  'inquiry of another organization than its estate': `
    SELECT i.id FROM inquiries i JOIN estates e ON e.id = i.estate_id WHERE i.organization_id <> e.organization_id`,
};

export async function integrityViolations(db: Queryable): Promise<string[]> {
  const out: string[] = [];
  for (const [name, sql] of Object.entries(INTEGRITY_QUERIES)) {
    const rows = await db.query<{ id: string }>(sql);
    if (rows.length) out.push(`${name}: ${rows.map((r) => r.id).join(', ')}`);
  }
  return out;
}
