import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { q } from '../../db/query.js';
import { conflict } from '../../errors.js';

/** Where an item of a batch puts an apartment, under which name. */
export interface NameClaim {
  /** The item's position in the request (`apartments[i]`). */
  index: number;
  buildingId: string;
  name: string;
}

/**
 * 409 naming the first item of a batch (bulk create, upsert, bulk PATCH) whose name another apartment
 * of its building already holds, as `apartments[i].name "…"` with that apartment's id. Apartments the
 * batch itself writes (`batchIds`) are left out: their new names are compared among the items by the
 * caller. Names compare as the unique index does (`lower(btrim(name))`), so this check and the index
 * agree; the index still decides a race with a concurrent call.
 */
export async function requireNamesFree(db: Queryable, organizationId: string, claims: readonly NameClaim[], batchIds: readonly string[]): Promise<void> {
  if (claims.length === 0) return;
  const found = await sql<{ i: string; id: string }>`
    SELECT c.i::text AS i, a.id
    FROM unnest(CAST(${claims.map((c) => c.buildingId)} AS uuid[]), CAST(${claims.map((c) => c.name)} AS text[])) WITH ORDINALITY AS c(building_id, name, i)
    JOIN apartments a ON a.building_id = c.building_id AND lower(btrim(a.name)) = lower(btrim(c.name))
    WHERE a.organization_id = ${organizationId} AND NOT (a.id = ANY(CAST(${batchIds} AS uuid[])))
    ORDER BY c.i
    LIMIT 1`.execute(q(db));
  const first = found.rows[0];
  if (!first) return;
  const claim = claims[Number(first.i) - 1]!;
  throw conflict(`apartments[${claim.index}].name "${claim.name.trim()}" is already the name of apartment ${first.id} in building ${claim.buildingId}`);
}
