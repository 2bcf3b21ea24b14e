import type { Queryable } from '../../../db/client.js';
import { assetJson } from '../assets.js';

export interface MapConfigJson {
  centerLat: number | null;
  centerLng: number | null;
  defaultZoom: number;
  tileStyle: string;
  defaultViewLat: number | null;
  defaultViewLng: number | null;
  logoAssetId: string | null;
  logoAsset: unknown;
}

export interface PoiJson {
  id: string;
  category: string;
  label: string;
  lat: number;
  lng: number;
  customDistanceLabel: string | null;
  order: number;
}

export interface MapDocRow {
  enabled: boolean;
  version: number;
  config: MapConfigJson | null;
  pois: PoiJson[];
}

const POI = `json_build_object('id', p.id, 'category', p.category, 'label', p.label, 'lat', p.lat, 'lng', p.lng,
  'customDistanceLabel', p.custom_distance_label, 'order', p.position)`;

export interface MapConfigFields {
  centerLat?: number | null;
  centerLng?: number | null;
  defaultZoom?: number;
  tileStyle?: string;
  defaultViewLat?: number | null;
  defaultViewLng?: number | null;
  logoAssetId?: string | null;
}

export interface PoiFields {
  category?: string;
  label?: string;
  lat?: number;
  lng?: number;
  customDistanceLabel?: string | null;
}

export const mapRepository = {
  /** Configuration, logo asset, points of interest and state in one statement. */
  async document(db: Queryable, organizationId: string, estateId: string, srcPrefix: string): Promise<MapDocRow> {
    const rows = await db.query<MapDocRow>(
      `SELECT coalesce(st.enabled, false) AS enabled, coalesce(st.version, 0)::int AS version,
         (SELECT json_build_object('centerLat', c.center_lat, 'centerLng', c.center_lng, 'defaultZoom', c.default_zoom,
            'tileStyle', c.tile_style, 'defaultViewLat', c.default_view_lat, 'defaultViewLng', c.default_view_lng,
            'logoAssetId', c.logo_asset_id,
            'logoAsset', (SELECT ${assetJson('$3')} FROM assets a WHERE a.organization_id = $1 AND a.id = c.logo_asset_id))
          FROM map_configs c WHERE c.organization_id = $1 AND c.estate_id = $2) AS config,
         coalesce((SELECT json_agg(${POI} ORDER BY p.position, p.id) FROM map_pois p
           WHERE p.organization_id = $1 AND p.estate_id = $2), '[]'::json) AS pois
       FROM (SELECT 1) AS one
       LEFT JOIN addon_states st ON st.organization_id = $1 AND st.estate_id = $2 AND st.kind = 'map'`,
      [organizationId, estateId, srcPrefix],
    );
    return rows[0]!;
  },

  async config(db: Queryable, organizationId: string, estateId: string) {
    return (
      await db.query<{ center_lat: number | null; center_lng: number | null; default_view_lat: number | null; default_view_lng: number | null }>(
        'SELECT * FROM map_configs WHERE organization_id = $1 AND estate_id = $2',
        [organizationId, estateId],
      )
    )[0];
  },

  /** Creates the configuration with defaults, or changes only the fields given. */
  async upsertConfig(db: Queryable, organizationId: string, estateId: string, f: MapConfigFields) {
    const has = (k: keyof MapConfigFields) => f[k] !== undefined;
    await db.query(
      `INSERT INTO map_configs (organization_id, estate_id, center_lat, center_lng, default_zoom, tile_style, default_view_lat, default_view_lng, logo_asset_id)
       VALUES ($1, $2, $3, $4, coalesce($5, 14), coalesce($6, 'VOYAGER'), $7, $8, $9)
       ON CONFLICT (estate_id) DO UPDATE SET
         center_lat = CASE WHEN $10::boolean THEN EXCLUDED.center_lat ELSE map_configs.center_lat END,
         center_lng = CASE WHEN $11::boolean THEN EXCLUDED.center_lng ELSE map_configs.center_lng END,
         default_zoom = CASE WHEN $12::boolean THEN EXCLUDED.default_zoom ELSE map_configs.default_zoom END,
         tile_style = CASE WHEN $13::boolean THEN EXCLUDED.tile_style ELSE map_configs.tile_style END,
         default_view_lat = CASE WHEN $14::boolean THEN EXCLUDED.default_view_lat ELSE map_configs.default_view_lat END,
         default_view_lng = CASE WHEN $15::boolean THEN EXCLUDED.default_view_lng ELSE map_configs.default_view_lng END,
         logo_asset_id = CASE WHEN $16::boolean THEN EXCLUDED.logo_asset_id ELSE map_configs.logo_asset_id END,
         updated_at = now()
       WHERE map_configs.organization_id = $1`,
      [
        organizationId,
        estateId,
        f.centerLat ?? null,
        f.centerLng ?? null,
        f.defaultZoom ?? null,
        f.tileStyle ?? null,
        f.defaultViewLat ?? null,
        f.defaultViewLng ?? null,
        f.logoAssetId ?? null,
        has('centerLat'),
        has('centerLng'),
        has('defaultZoom'),
        has('tileStyle'),
        has('defaultViewLat'),
        has('defaultViewLng'),
        has('logoAssetId'),
      ],
    );
  },

  async deleteAll(db: Queryable, organizationId: string, estateId: string) {
    await db.query('DELETE FROM map_pois WHERE organization_id = $1 AND estate_id = $2', [organizationId, estateId]);
    await db.query('DELETE FROM map_configs WHERE organization_id = $1 AND estate_id = $2', [organizationId, estateId]);
  },

  async poi(db: Queryable, organizationId: string, estateId: string, id: string): Promise<PoiJson | undefined> {
    const rows = await db.query<{ doc: PoiJson }>(`SELECT ${POI} AS doc FROM map_pois p WHERE p.organization_id = $1 AND p.estate_id = $2 AND p.id = $3`, [
      organizationId,
      estateId,
      id,
    ]);
    return rows[0]?.doc;
  },

  async insertPoi(
    db: Queryable,
    organizationId: string,
    row: Required<Omit<PoiFields, 'customDistanceLabel'>> & { id: string; estateId: string; customDistanceLabel: string | null; position: number },
  ) {
    await db.query(
      `INSERT INTO map_pois (id, organization_id, estate_id, category, label, lat, lng, custom_distance_label, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [row.id, organizationId, row.estateId, row.category, row.label, row.lat, row.lng, row.customDistanceLabel, row.position],
    );
  },

  async updatePoi(db: Queryable, organizationId: string, id: string, f: PoiFields) {
    await db.query(
      `UPDATE map_pois SET category = coalesce($3, category), label = coalesce($4, label), lat = coalesce($5, lat), lng = coalesce($6, lng),
         custom_distance_label = CASE WHEN $7::boolean THEN $8 ELSE custom_distance_label END, updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [
        organizationId,
        id,
        f.category ?? null,
        f.label ?? null,
        f.lat ?? null,
        f.lng ?? null,
        f.customDistanceLabel !== undefined,
        f.customDistanceLabel ?? null,
      ],
    );
  },

  async deletePoi(db: Queryable, organizationId: string, id: string) {
    await db.query('DELETE FROM map_pois WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  },
};
