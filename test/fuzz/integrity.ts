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
    SELECT n.id FROM navigators n JOIN estates e ON e.id = n.reference_id WHERE n.organization_id <> e.organization_id`,
  'estate pointing at a missing navigator': `
    SELECT e.id FROM estates e WHERE e.navigator_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM navigators n WHERE n.id = e.navigator_id)`,
};

export async function integrityViolations(db: Queryable): Promise<string[]> {
  const out: string[] = [];
  for (const [name, sql] of Object.entries(INTEGRITY_QUERIES)) {
    const rows = await db.query<{ id: string }>(sql);
    if (rows.length) out.push(`${name}: ${rows.map((r) => r.id).join(', ')}`);
  }
  return out;
}
