import type { Queryable } from '../../db/client.js';
import { type ColumnMap, updateScoped } from '../../db/sql.js';

export interface BuildingRow {
  id: string;
  organization_id: string;
  estate_id: string;
  name: string;
  description: string | null;
  features: Array<{ name: string; description?: string | null; type: string }>;
  source: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface BuildingFields {
  name?: string;
  description?: string | null;
  features?: BuildingRow['features'];
  source?: string | null;
}

const COLUMNS: ColumnMap<BuildingFields> = {
  name: { column: 'name' },
  description: { column: 'description' },
  features: { column: 'features', json: true },
  source: { column: 'source' },
};

export const buildingsRepository = {
  async insert(db: Queryable, row: { id: string; organizationId: string; estateId: string } & BuildingFields): Promise<BuildingRow> {
    const rows = await db.query<BuildingRow>(
      `INSERT INTO buildings (id, organization_id, estate_id, name, description, features, source)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [row.id, row.organizationId, row.estateId, row.name, row.description ?? null, JSON.stringify(row.features ?? []), row.source ?? null],
    );
    return rows[0]!;
  },

  async get(db: Queryable, organizationId: string, id: string): Promise<BuildingRow | undefined> {
    return (await db.query<BuildingRow>('SELECT * FROM buildings WHERE organization_id = $1 AND id = $2', [organizationId, id]))[0];
  },

  async listByEstates(db: Queryable, organizationId: string, estateIds: string[]): Promise<BuildingRow[]> {
    if (estateIds.length === 0) return [];
    return db.query<BuildingRow>('SELECT * FROM buildings WHERE organization_id = $1 AND estate_id = ANY($2::uuid[]) ORDER BY created_at, id', [
      organizationId,
      estateIds,
    ]);
  },

  update(db: Queryable, organizationId: string, id: string, fields: BuildingFields): Promise<BuildingRow | undefined> {
    return updateScoped<BuildingRow, BuildingFields>(db, 'buildings', COLUMNS, organizationId, id, fields);
  },
};
