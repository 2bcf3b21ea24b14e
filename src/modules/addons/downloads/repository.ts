import type { Queryable } from '../../../db/client.js';
import { childDocument } from '../addon-service.js';
import { assetJson } from '../assets.js';

const ITEM = `json_build_object('id', d.id, 'assetId', d.asset_id, 'label', d.label, 'order', d.position, 'asset', ${assetJson('$3')})`;

const GROUP = `json_build_object('id', g.id, 'title', g.title, 'order', g.position,
  'items', coalesce((SELECT json_agg(${ITEM} ORDER BY d.position, d.id) FROM downloads_items d JOIN assets a ON a.id = d.asset_id
    WHERE d.organization_id = $1 AND d.group_id = g.id), '[]'::json))`;

export interface DownloadsDocRow {
  enabled: boolean;
  version: number;
  groups: unknown[];
}

export const downloadsRepository = {
  /** Groups with their items, and the state, in one statement. */
  async document(db: Queryable, organizationId: string, estateId: string, srcPrefix: string): Promise<DownloadsDocRow> {
    const rows = await db.query<DownloadsDocRow>(
      `SELECT coalesce(st.enabled, false) AS enabled, coalesce(st.version, 0)::int AS version,
         coalesce((SELECT json_agg(${GROUP} ORDER BY g.position, g.id) FROM downloads_groups g
           WHERE g.organization_id = $1 AND g.estate_id = $2), '[]'::json) AS groups
       FROM (SELECT 1) AS one
       LEFT JOIN addon_states st ON st.organization_id = $1 AND st.estate_id = $2 AND st.kind = 'downloads'`,
      [organizationId, estateId, srcPrefix],
    );
    return rows[0]!;
  },

  group(db: Queryable, organizationId: string, estateId: string, id: string, srcPrefix: string) {
    return childDocument<{ id: string; items: unknown[] }>(
      db,
      { json: GROUP, from: 'downloads_groups g', alias: 'g' },
      organizationId,
      estateId,
      id,
      srcPrefix,
    );
  },

  item(db: Queryable, organizationId: string, estateId: string, id: string, srcPrefix: string) {
    return childDocument<unknown>(
      db,
      { json: ITEM, from: 'downloads_items d JOIN assets a ON a.id = d.asset_id', alias: 'd' },
      organizationId,
      estateId,
      id,
      srcPrefix,
    );
  },

  async insertGroup(db: Queryable, organizationId: string, row: { id: string; estateId: string; title: string; position: number }) {
    await db.query('INSERT INTO downloads_groups (id, organization_id, estate_id, title, position) VALUES ($1, $2, $3, $4, $5)', [
      row.id,
      organizationId,
      row.estateId,
      row.title,
      row.position,
    ]);
  },

  async updateGroup(db: Queryable, organizationId: string, id: string, title: string) {
    await db.query('UPDATE downloads_groups SET title = $3, updated_at = now() WHERE organization_id = $1 AND id = $2', [organizationId, id, title]);
  },

  /** Items go with their group (ON DELETE CASCADE). */
  async deleteGroup(db: Queryable, organizationId: string, id: string) {
    await db.query('DELETE FROM downloads_groups WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  },

  async insertItem(
    db: Queryable,
    organizationId: string,
    row: { id: string; estateId: string; groupId: string; assetId: string; label: string; position: number },
  ) {
    await db.query(
      `INSERT INTO downloads_items (id, organization_id, estate_id, group_id, asset_id, label, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [row.id, organizationId, row.estateId, row.groupId, row.assetId, row.label, row.position],
    );
  },

  async updateItem(db: Queryable, organizationId: string, id: string, fields: { label?: string; assetId?: string }) {
    await db.query(
      'UPDATE downloads_items SET label = coalesce($3, label), asset_id = coalesce($4::uuid, asset_id), updated_at = now() WHERE organization_id = $1 AND id = $2',
      [organizationId, id, fields.label ?? null, fields.assetId ?? null],
    );
  },

  async deleteItem(db: Queryable, organizationId: string, id: string) {
    await db.query('DELETE FROM downloads_items WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  },
};
