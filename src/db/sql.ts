import type { Queryable } from './client.js';

/** How one API field is stored: its column, and how to encode it (jsonb columns take JSON text). */
export type ColumnMap<F> = { [K in keyof F]-?: { column: string; json?: boolean } };

/**
 * UPDATE of only the fields present in `fields`, scoped to the organization. Returns the updated row,
 * or undefined when no row of that organization has the id. With nothing to change it reads the row.
 */
export async function updateScoped<R, F extends object>(
  db: Queryable,
  table: string,
  columns: ColumnMap<F>,
  organizationId: string,
  id: string,
  fields: Partial<F>,
): Promise<R | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [organizationId, id];
  for (const key of Object.keys(columns) as Array<keyof F>) {
    const value = fields[key];
    if (value === undefined) continue;
    const spec = columns[key];
    params.push(spec.json && value !== null ? JSON.stringify(value) : value);
    sets.push(`${spec.column} = $${params.length}`);
  }
  const sql =
    sets.length === 0
      ? `SELECT * FROM ${table} WHERE organization_id = $1 AND id = $2`
      : `UPDATE ${table} SET ${sets.join(', ')}, updated_at = now() WHERE organization_id = $1 AND id = $2 RETURNING *`;
  return (await db.query<R>(sql, params))[0];
}
