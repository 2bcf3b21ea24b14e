import type { Queryable } from '../../db/client.js';
import { type ColumnMap, updateScoped } from '../../db/sql.js';

export interface EstateRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  slug: string;
  photo_url: string | null;
  navigator_id: string | null;
  integration_type: string | null;
  is_preview: boolean;
  subscription_status: string;
  manually_activated_at: Date | null;
  manually_activated_by_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface EstateFields {
  name?: string;
  description?: string | null;
  slug?: string;
  photoUrl?: string | null;
  integrationType?: string | null;
  navigatorId?: string | null;
  isPreview?: boolean;
  subscriptionStatus?: string;
  manuallyActivatedAt?: string | null;
  manuallyActivatedById?: string | null;
}

const COLUMNS: ColumnMap<EstateFields> = {
  name: { column: 'name' },
  description: { column: 'description' },
  slug: { column: 'slug' },
  photoUrl: { column: 'photo_url' },
  integrationType: { column: 'integration_type' },
  navigatorId: { column: 'navigator_id' },
  isPreview: { column: 'is_preview' },
  subscriptionStatus: { column: 'subscription_status' },
  manuallyActivatedAt: { column: 'manually_activated_at' },
  manuallyActivatedById: { column: 'manually_activated_by_id' },
};

// The first key of the two-key advisory lock; any constant that no other lock in the service uses.
const SLUG_LOCK_NAMESPACE = 724_311_902;

export const estatesRepository = {
  async insert(db: Queryable, row: { id: string; organizationId: string; name: string; slug: string } & EstateFields): Promise<EstateRow> {
    const rows = await db.query<EstateRow>(
      `INSERT INTO estates (id, organization_id, name, slug, description, photo_url, integration_type, navigator_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [row.id, row.organizationId, row.name, row.slug, row.description ?? null, row.photoUrl ?? null, row.integrationType ?? null, row.navigatorId ?? null],
    );
    return rows[0]!;
  },

  async get(db: Queryable, organizationId: string, id: string): Promise<EstateRow | undefined> {
    return (await db.query<EstateRow>('SELECT * FROM estates WHERE organization_id = $1 AND id = $2', [organizationId, id]))[0];
  },

  /** Reads and locks the estate row: serialises changes to everything that hangs off one estate. */
  async lock(db: Queryable, organizationId: string, id: string): Promise<EstateRow | undefined> {
    return (await db.query<EstateRow>('SELECT * FROM estates WHERE organization_id = $1 AND id = $2 FOR UPDATE', [organizationId, id]))[0];
  },

  async list(db: Queryable, organizationId: string, opts: { buildingId?: string; offset: number; limit: number }): Promise<EstateRow[]> {
    if (opts.buildingId !== undefined) {
      return db.query<EstateRow>(
        `SELECT e.* FROM estates e JOIN buildings b ON b.estate_id = e.id
         WHERE e.organization_id = $1 AND b.id = $2 ORDER BY e.created_at DESC, e.id DESC OFFSET $3 LIMIT $4`,
        [organizationId, opts.buildingId, opts.offset, opts.limit],
      );
    }
    return db.query<EstateRow>('SELECT * FROM estates WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT $3', [
      organizationId,
      opts.offset,
      opts.limit,
    ]);
  },

  /**
   * Serialises slug generation for one base slug until the transaction ends: two estates named alike
   * (in any organizations) would otherwise both pick the same free suffix and one would fail.
   */
  async lockSlugBase(db: Queryable, base: string): Promise<void> {
    await db.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SLUG_LOCK_NAMESPACE, base]);
  },

  async slugsLike(db: Queryable, base: string): Promise<string[]> {
    const rows = await db.query<{ slug: string }>("SELECT lower(slug) AS slug FROM estates WHERE lower(slug) = $1 OR lower(slug) LIKE $1 || '-%'", [base]);
    return rows.map((r) => r.slug);
  },

  update(db: Queryable, organizationId: string, id: string, fields: EstateFields): Promise<EstateRow | undefined> {
    return updateScoped<EstateRow, EstateFields>(db, 'estates', COLUMNS, organizationId, id, fields);
  },

  /** Operator access: the dashboard-managed fields of any organization's estate. */
  async updateAnyOrganization(db: Queryable, id: string, fields: EstateFields): Promise<EstateRow | undefined> {
    const row = (await db.query<EstateRow>('SELECT * FROM estates WHERE id = $1', [id]))[0];
    if (!row) return undefined;
    return updateScoped<EstateRow, EstateFields>(db, 'estates', COLUMNS, row.organization_id, id, fields);
  },
};
