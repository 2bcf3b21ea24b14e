import type { Queryable } from '../../../db/client.js';
import { childDocument } from '../addon-service.js';
import { assetJson } from '../assets.js';

const FILE = `json_build_object('id', f.id, 'assetId', f.asset_id, 'label', f.label, 'order', f.position, 'asset', ${assetJson('$3')})`;

const SECTION = `json_build_object('id', s.id, 'title', s.title, 'description', s.description, 'order', s.position,
  'files', coalesce((SELECT json_agg(${FILE} ORDER BY f.position, f.id) FROM investment_files f JOIN assets a ON a.id = f.asset_id
    WHERE f.organization_id = $1 AND f.section_id = s.id), '[]'::json))`;

export interface InvestmentDocRow {
  enabled: boolean;
  version: number;
  sections: unknown[];
}

export const investmentRepository = {
  /** The whole add-on in one statement: sections with their files, and the state. */
  async document(db: Queryable, organizationId: string, estateId: string, srcPrefix: string): Promise<InvestmentDocRow> {
    const rows = await db.query<InvestmentDocRow>(
      `SELECT coalesce(st.enabled, false) AS enabled, coalesce(st.version, 0)::int AS version,
         coalesce((SELECT json_agg(${SECTION} ORDER BY s.position, s.id) FROM investment_sections s
           WHERE s.organization_id = $1 AND s.estate_id = $2), '[]'::json) AS sections
       FROM (SELECT 1) AS one
       LEFT JOIN addon_states st ON st.organization_id = $1 AND st.estate_id = $2 AND st.kind = 'investment'`,
      [organizationId, estateId, srcPrefix],
    );
    return rows[0]!;
  },

  section(db: Queryable, organizationId: string, estateId: string, id: string, srcPrefix: string) {
    return childDocument<{ id: string; files: unknown[] }>(
      db,
      { json: SECTION, from: 'investment_sections s', alias: 's' },
      organizationId,
      estateId,
      id,
      srcPrefix,
    );
  },

  file(db: Queryable, organizationId: string, estateId: string, id: string, srcPrefix: string) {
    return childDocument<unknown>(
      db,
      { json: FILE, from: 'investment_files f JOIN assets a ON a.id = f.asset_id', alias: 'f' },
      organizationId,
      estateId,
      id,
      srcPrefix,
    );
  },

  async insertSection(db: Queryable, organizationId: string, row: { id: string; estateId: string; title: string; description: string; position: number }) {
    await db.query('INSERT INTO investment_sections (id, organization_id, estate_id, title, description, position) VALUES ($1, $2, $3, $4, $5, $6)', [
      row.id,
      organizationId,
      row.estateId,
      row.title,
      row.description,
      row.position,
    ]);
  },

  async updateSection(db: Queryable, organizationId: string, id: string, fields: { title?: string; description?: string }) {
    await db.query(
      `UPDATE investment_sections SET title = coalesce($3, title), description = coalesce($4, description), updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [organizationId, id, fields.title ?? null, fields.description ?? null],
    );
  },

  /** Files go with their section (ON DELETE CASCADE). */
  async deleteSection(db: Queryable, organizationId: string, id: string) {
    await db.query('DELETE FROM investment_sections WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  },

  async insertFile(
    db: Queryable,
    organizationId: string,
    row: { id: string; estateId: string; sectionId: string; assetId: string; label: string; position: number },
  ) {
    await db.query(
      `INSERT INTO investment_files (id, organization_id, estate_id, section_id, asset_id, label, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [row.id, organizationId, row.estateId, row.sectionId, row.assetId, row.label, row.position],
    );
  },

  async updateFile(db: Queryable, organizationId: string, id: string, fields: { label?: string }) {
    await db.query('UPDATE investment_files SET label = coalesce($3, label), updated_at = now() WHERE organization_id = $1 AND id = $2', [
      organizationId,
      id,
      fields.label ?? null,
    ]);
  },

  async deleteFile(db: Queryable, organizationId: string, id: string) {
    await db.query('DELETE FROM investment_files WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  },
};
