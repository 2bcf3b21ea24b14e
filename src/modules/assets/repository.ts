import type { Queryable } from '../../db/client.js';

export interface AssetRow {
  id: string;
  organization_id: string;
  name: string;
  storage_key: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  created_at: Date;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export const assetsRepository = {
  async insert(
    db: Queryable,
    organizationId: string,
    row: { id: string; name: string; storageKey: string; mimeType: string; sizeBytes: number; sha256: string },
  ): Promise<AssetRow> {
    const rows = await db.query<AssetRow>(
      `INSERT INTO assets (id, organization_id, name, storage_key, mime_type, size_bytes, sha256)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [row.id, organizationId, row.name, row.storageKey, row.mimeType, row.sizeBytes, row.sha256],
    );
    return rows[0]!;
  },

  async get(db: Queryable, organizationId: string, id: string): Promise<AssetRow | undefined> {
    return (await db.query<AssetRow>('SELECT * FROM assets WHERE organization_id = $1 AND id = $2', [organizationId, id]))[0];
  },

  async list(db: Queryable, organizationId: string, opts: { mimePrefix?: string | undefined; offset: number; limit: number }): Promise<AssetRow[]> {
    if (opts.mimePrefix !== undefined) {
      return db.query<AssetRow>(
        `SELECT * FROM assets WHERE organization_id = $1 AND mime_type LIKE $2 ESCAPE '\\'
         ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT $4`,
        [organizationId, `${escapeLike(opts.mimePrefix.toLowerCase())}%`, opts.offset, opts.limit],
      );
    }
    return db.query<AssetRow>('SELECT * FROM assets WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT $3', [
      organizationId,
      opts.offset,
      opts.limit,
    ]);
  },

  async delete(db: Queryable, organizationId: string, id: string): Promise<AssetRow | undefined> {
    return (await db.query<AssetRow>('DELETE FROM assets WHERE organization_id = $1 AND id = $2 RETURNING *', [organizationId, id]))[0];
  },
};
