import type { Queryable } from '../../db/client.js';

export interface OrganizationRow {
  id: string;
  name: string;
  feature_flags: string[];
  created_at: Date;
}

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  name: string;
  key_prefix: string;
  scopes: string[];
  created_at: Date;
  revoked_at: Date | null;
}

export const organizationsRepository = {
  async insert(db: Queryable, org: { id: string; name: string; featureFlags: string[] }): Promise<OrganizationRow> {
    const rows = await db.query<OrganizationRow>('INSERT INTO organizations (id, name, feature_flags) VALUES ($1, $2, $3) RETURNING *', [
      org.id,
      org.name,
      org.featureFlags,
    ]);
    return rows[0]!;
  },

  async get(db: Queryable, id: string): Promise<OrganizationRow | undefined> {
    return (await db.query<OrganizationRow>('SELECT * FROM organizations WHERE id = $1', [id]))[0];
  },

  async list(db: Queryable, offset: number, limit: number): Promise<OrganizationRow[]> {
    return db.query<OrganizationRow>('SELECT * FROM organizations ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT $2', [offset, limit]);
  },

  async insertKey(
    db: Queryable,
    key: { id: string; organizationId: string; name: string; hash: string; prefix: string; scopes: string[] },
  ): Promise<ApiKeyRow> {
    const rows = await db.query<ApiKeyRow>(
      `INSERT INTO api_keys (id, organization_id, name, key_hash, key_prefix, scopes)
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING id, organization_id, name, key_prefix, scopes, created_at, revoked_at`,
      [key.id, key.organizationId, key.name, key.hash, key.prefix, key.scopes],
    );
    return rows[0]!;
  },

  async findActiveKeyByHash(db: Queryable, hash: string): Promise<ApiKeyRow | undefined> {
    return (
      await db.query<ApiKeyRow>(
        `SELECT id, organization_id, name, key_prefix, scopes, created_at, revoked_at
         FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
        [hash],
      )
    )[0];
  },

  async revokeKey(db: Queryable, keyId: string): Promise<boolean> {
    const rows = await db.query<{ id: string }>('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id', [keyId]);
    return rows.length > 0;
  },

  async keyExists(db: Queryable, keyId: string): Promise<boolean> {
    return (await db.query('SELECT 1 FROM api_keys WHERE id = $1', [keyId])).length > 0;
  },
};
