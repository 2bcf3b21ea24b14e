import type { Queryable } from '../../../db/client.js';
import { childDocument } from '../addon-service.js';
import { assetJson } from '../assets.js';

const ITEM = `json_build_object('id', i.id, 'assetId', i.asset_id, 'caption', i.caption, 'sectionId', i.section_id, 'order', i.position, 'asset', ${assetJson('$3')})`;

const ITEMS_OF_SECTION = `coalesce((SELECT json_agg(${ITEM} ORDER BY i.position, i.id) FROM gallery_items i JOIN assets a ON a.id = i.asset_id
  WHERE i.organization_id = $1 AND i.estate_id = $2 AND i.section_id = s.id), '[]'::json)`;

const SECTION = `json_build_object('id', s.id, 'title', s.title, 'description', s.description, 'order', s.position, 'items', ${ITEMS_OF_SECTION})`;

export interface GalleryDocRow {
  enabled: boolean;
  version: number;
  sections: unknown[];
  items: unknown[];
}

export const galleryRepository = {
  /** The whole gallery in one statement: sections with their items, ungrouped items, state. */
  async document(db: Queryable, organizationId: string, estateId: string, srcPrefix: string): Promise<GalleryDocRow> {
    const rows = await db.query<GalleryDocRow>(
      `SELECT coalesce(st.enabled, false) AS enabled, coalesce(st.version, 0)::int AS version,
         coalesce((SELECT json_agg(${SECTION} ORDER BY s.position, s.id) FROM gallery_sections s
           WHERE s.organization_id = $1 AND s.estate_id = $2), '[]'::json) AS sections,
         coalesce((SELECT json_agg(${ITEM} ORDER BY i.position, i.id) FROM gallery_items i JOIN assets a ON a.id = i.asset_id
           WHERE i.organization_id = $1 AND i.estate_id = $2 AND i.section_id IS NULL), '[]'::json) AS items
       FROM (SELECT 1) AS one
       LEFT JOIN addon_states st ON st.organization_id = $1 AND st.estate_id = $2 AND st.kind = 'gallery'`,
      [organizationId, estateId, srcPrefix],
    );
    return rows[0]!;
  },

  section(db: Queryable, organizationId: string, estateId: string, id: string, srcPrefix: string) {
    return childDocument<unknown>(db, { json: SECTION, from: 'gallery_sections s', alias: 's' }, organizationId, estateId, id, srcPrefix);
  },

  item(db: Queryable, organizationId: string, estateId: string, id: string, srcPrefix: string) {
    return childDocument<unknown>(
      db,
      { json: ITEM, from: 'gallery_items i JOIN assets a ON a.id = i.asset_id', alias: 'i' },
      organizationId,
      estateId,
      id,
      srcPrefix,
    );
  },

  async insertSection(
    db: Queryable,
    organizationId: string,
    row: { id: string; estateId: string; title: string; description: string | null; position: number },
  ) {
    await db.query('INSERT INTO gallery_sections (id, organization_id, estate_id, title, description, position) VALUES ($1, $2, $3, $4, $5, $6)', [
      row.id,
      organizationId,
      row.estateId,
      row.title,
      row.description,
      row.position,
    ]);
  },

  async updateSection(db: Queryable, organizationId: string, id: string, fields: { title?: string; description?: string | null }) {
    await db.query(
      `UPDATE gallery_sections SET title = coalesce($3, title), description = CASE WHEN $4::boolean THEN $5 ELSE description END, updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [organizationId, id, fields.title ?? null, fields.description !== undefined, fields.description ?? null],
    );
  },

  async deleteSection(db: Queryable, organizationId: string, id: string) {
    await db.query('DELETE FROM gallery_sections WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  },

  /** Moves every item of a section to ungrouped, keeping positions for the caller to renumber. */
  async ungroupItems(db: Queryable, organizationId: string, sectionId: string, basePosition: number) {
    await db.query(
      `UPDATE gallery_items SET section_id = NULL, position = $3 + position, updated_at = now()
       WHERE organization_id = $1 AND section_id = $2`,
      [organizationId, sectionId, basePosition],
    );
  },

  async insertItem(
    db: Queryable,
    organizationId: string,
    row: { id: string; estateId: string; assetId: string; caption: string | null; sectionId: string | null; position: number },
  ) {
    await db.query(
      `INSERT INTO gallery_items (id, organization_id, estate_id, asset_id, caption, section_id, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [row.id, organizationId, row.estateId, row.assetId, row.caption, row.sectionId, row.position],
    );
  },

  async updateItem(
    db: Queryable,
    organizationId: string,
    id: string,
    fields: { caption?: string | null; assetId?: string; move?: { sectionId: string | null; position: number } },
  ) {
    await db.query(
      `UPDATE gallery_items SET
         caption = CASE WHEN $3::boolean THEN $4 ELSE caption END,
         asset_id = coalesce($5::uuid, asset_id),
         section_id = CASE WHEN $6::boolean THEN $7::uuid ELSE section_id END,
         position = coalesce($8::int, position),
         updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [
        organizationId,
        id,
        fields.caption !== undefined,
        fields.caption ?? null,
        fields.assetId ?? null,
        fields.move !== undefined,
        fields.move?.sectionId ?? null,
        fields.move?.position ?? null,
      ],
    );
  },

  async deleteItem(db: Queryable, organizationId: string, id: string) {
    await db.query('DELETE FROM gallery_items WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  },
};
