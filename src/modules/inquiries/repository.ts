import type { Queryable } from '../../db/client.js';

export interface InquiryRow {
  id: string;
  organization_id: string;
  estate_id: string;
  name: string;
  email: string;
  phone_number: string | null;
  info: string | null;
  apartment_ids: string[];
  referral_user_id: string | null;
  status: string;
  created_at: Date;
  updated_at: Date;
}

export interface InquiryFilter {
  estateId?: string | undefined;
  apartmentId?: string | undefined;
}

function where(organizationId: string, filter: InquiryFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [organizationId];
  const parts = ['organization_id = $1'];
  if (filter.estateId) {
    params.push(filter.estateId);
    parts.push(`estate_id = $${params.length}`);
  }
  if (filter.apartmentId) {
    params.push([filter.apartmentId]);
    parts.push(`apartment_ids @> $${params.length}::uuid[]`);
  }
  return { sql: parts.join(' AND '), params };
}

export const inquiriesRepository = {
  /**
   * The one lookup without an organization: the public submission names only the estate, and its
   * owner becomes the organization of everything that follows.
   */
  async estateOwner(db: Queryable, estateId: string): Promise<string | undefined> {
    return (await db.query<{ organization_id: string }>('SELECT organization_id FROM estates WHERE id = $1', [estateId]))[0]?.organization_id;
  },

  /** Of the given ids, those that are apartments of the estate. */
  async apartmentsOfEstate(db: Queryable, organizationId: string, estateId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await db.query<{ id: string }>('SELECT id FROM apartments WHERE organization_id = $1 AND estate_id = $2 AND id = ANY($3::uuid[])', [
      organizationId,
      estateId,
      ids,
    ]);
    return rows.map((r) => r.id);
  },

  async insert(
    db: Queryable,
    organizationId: string,
    row: Pick<InquiryRow, 'id' | 'estate_id' | 'name' | 'email' | 'phone_number' | 'info' | 'apartment_ids' | 'referral_user_id'>,
  ): Promise<InquiryRow> {
    const rows = await db.query<InquiryRow>(
      `INSERT INTO inquiries (id, organization_id, estate_id, name, email, phone_number, info, apartment_ids, referral_user_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::uuid[], $9) RETURNING *`,
      [row.id, organizationId, row.estate_id, row.name, row.email, row.phone_number, row.info, row.apartment_ids, row.referral_user_id],
    );
    return rows[0]!;
  },

  async list(db: Queryable, organizationId: string, filter: InquiryFilter, offset: number, limit: number): Promise<InquiryRow[]> {
    const w = where(organizationId, filter);
    return db.query<InquiryRow>(
      `SELECT * FROM inquiries WHERE ${w.sql} ORDER BY created_at DESC, id DESC OFFSET $${w.params.length + 1} LIMIT $${w.params.length + 2}`,
      [...w.params, offset, limit],
    );
  },

  async count(db: Queryable, organizationId: string, filter: InquiryFilter): Promise<number> {
    const w = where(organizationId, filter);
    return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM inquiries WHERE ${w.sql}`, w.params))[0]!.n;
  },

  async get(db: Queryable, organizationId: string, id: string): Promise<InquiryRow | undefined> {
    return (await db.query<InquiryRow>('SELECT * FROM inquiries WHERE organization_id = $1 AND id = $2', [organizationId, id]))[0];
  },

  async setStatus(db: Queryable, organizationId: string, id: string, status: string): Promise<InquiryRow | undefined> {
    return (
      await db.query<InquiryRow>('UPDATE inquiries SET status = $3, updated_at = now() WHERE organization_id = $1 AND id = $2 RETURNING *', [
        organizationId,
        id,
        status,
      ])
    )[0];
  },
};
