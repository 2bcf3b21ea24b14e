import type { Queryable } from '../../db/client.js';

export interface StoredComment {
  id: string;
  comment: string;
  authorData: { name: string | null; email: string | null; nickname: string | null };
  createdAt: string;
  x: number;
  y: number;
  parentCommentId: string | null;
}

export interface StoredPortal {
  id: string;
  icon: string | null;
  label: string | null;
  x: number;
  y: number;
  fromPanoramaId: string;
  toPanoramaId: string | null;
  createdAt: string;
}

export interface StoredPoi {
  id: string;
  name: string;
  x: number;
  y: number;
  data: { urls: string[]; type: string | null };
  createdAt: string;
}

export interface PanoramaMetadata {
  prealign: string | null;
  hlookat: number | null;
  vlookat: number | null;
  northOffset: number | null;
}

export interface PanoramaRow {
  id: string;
  organization_id: string;
  apartment_id: string;
  name: string;
  src: string;
  priority: number;
  seo_title: string | null;
  seo_description: string | null;
  metadata: PanoramaMetadata;
  comments: StoredComment[];
  portals: StoredPortal[];
  pois: StoredPoi[];
  linked_panorama_ids: string[];
  created_at: Date;
}

export type NewPanorama = Omit<PanoramaRow, 'organization_id' | 'created_at'>;

export const panoramasRepository = {
  /** The operator surface names only the apartment; its owner is the organization of the new panorama. */
  async apartmentOwner(db: Queryable, apartmentId: string): Promise<string | undefined> {
    return (await db.query<{ organization_id: string }>('SELECT organization_id FROM apartments WHERE id = $1', [apartmentId]))[0]?.organization_id;
  },

  async insert(db: Queryable, organizationId: string, p: NewPanorama): Promise<PanoramaRow> {
    const rows = await db.query<PanoramaRow>(
      `INSERT INTO panoramas (id, organization_id, apartment_id, name, src, priority, seo_title, seo_description,
                              metadata, comments, portals, pois, linked_panorama_ids)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::uuid[]) RETURNING *`,
      [
        p.id,
        organizationId,
        p.apartment_id,
        p.name,
        p.src,
        p.priority,
        p.seo_title,
        p.seo_description,
        JSON.stringify(p.metadata),
        JSON.stringify(p.comments),
        JSON.stringify(p.portals),
        JSON.stringify(p.pois),
        p.linked_panorama_ids,
      ],
    );
    return rows[0]!;
  },

  /** Highest priority first, then oldest first. */
  async listByApartment(db: Queryable, organizationId: string, apartmentId: string): Promise<PanoramaRow[]> {
    return db.query<PanoramaRow>('SELECT * FROM panoramas WHERE organization_id = $1 AND apartment_id = $2 ORDER BY priority DESC, created_at, id', [
      organizationId,
      apartmentId,
    ]);
  },

  async listByIds(db: Queryable, organizationId: string, ids: string[]): Promise<PanoramaRow[]> {
    if (ids.length === 0) return [];
    return db.query<PanoramaRow>('SELECT * FROM panoramas WHERE organization_id = $1 AND id = ANY($2::uuid[])', [organizationId, ids]);
  },
};
