import type { Queryable } from '../../db/client.js';
import { type ColumnMap, updateScoped } from '../../db/sql.js';

export interface PriceChange {
  date: string;
  priceCentsBefore: number | null;
  priceCentsAfter: number | null;
}

export interface ApartmentRow {
  id: string;
  organization_id: string;
  estate_id: string;
  building_id: string;
  name: string;
  is_promoted: boolean;
  description: string | null;
  status: string;
  floor_plan_urls: string[];
  floor_plan_preview_urls: string[];
  floor_plan_3d_preview_urls: string[];
  price_cents: number | null;
  is_price_net: boolean;
  apartment_type: string;
  apartment_data: Record<string, unknown>;
  show_price: boolean;
  currency: string | null;
  external_id: string | null;
  last_synchronized_at: Date | null;
  source: string | null;
  virtual_tour_url: string | null;
  assets_ids: string[];
  panorama_id: string | null;
  preferred_angles: Array<{ navigatorId: string; angle: number; source: string }>;
  external_url: string | null;
  price_change_history: PriceChange[];
  created_at: Date;
  updated_at: Date;
}

/** Writable apartment fields in API names; the map below says where each is stored. */
export interface ApartmentFields {
  name?: string;
  buildingId?: string;
  estateId?: string;
  isPromoted?: boolean;
  description?: string | null;
  status?: string;
  floorPlanUrls?: string[];
  floorPlanPreviewUrls?: string[];
  floorPlan3dPreviewUrls?: string[];
  priceCents?: number | null;
  isPriceNet?: boolean;
  apartmentType?: string;
  apartmentData?: Record<string, unknown>;
  showPrice?: boolean;
  currency?: string | null;
  externalId?: string | null;
  lastSynchronizedAt?: string | null;
  source?: string | null;
  virtualTourUrl?: string | null;
  assetsIds?: string[];
  panoramaId?: string | null;
  preferredAngles?: ApartmentRow['preferred_angles'];
  externalUrl?: string | null;
  priceChangeHistory?: PriceChange[];
}

export const APARTMENT_COLUMNS: ColumnMap<ApartmentFields> = {
  name: { column: 'name' },
  buildingId: { column: 'building_id' },
  estateId: { column: 'estate_id' },
  isPromoted: { column: 'is_promoted' },
  description: { column: 'description' },
  status: { column: 'status' },
  floorPlanUrls: { column: 'floor_plan_urls', json: true },
  floorPlanPreviewUrls: { column: 'floor_plan_preview_urls', json: true },
  floorPlan3dPreviewUrls: { column: 'floor_plan_3d_preview_urls', json: true },
  priceCents: { column: 'price_cents' },
  isPriceNet: { column: 'is_price_net' },
  apartmentType: { column: 'apartment_type' },
  apartmentData: { column: 'apartment_data', json: true },
  showPrice: { column: 'show_price' },
  currency: { column: 'currency' },
  externalId: { column: 'external_id' },
  lastSynchronizedAt: { column: 'last_synchronized_at' },
  source: { column: 'source' },
  virtualTourUrl: { column: 'virtual_tour_url' },
  assetsIds: { column: 'assets_ids', json: true },
  panoramaId: { column: 'panorama_id' },
  preferredAngles: { column: 'preferred_angles', json: true },
  externalUrl: { column: 'external_url' },
  priceChangeHistory: { column: 'price_change_history', json: true },
};

/** Defaults of a new apartment (DECISIONS), applied by the service to every field an item left out. */
export const APARTMENT_DEFAULTS = {
  isPromoted: false,
  description: null,
  status: 'ACTIVE',
  floorPlanUrls: [],
  floorPlanPreviewUrls: [],
  floorPlan3dPreviewUrls: [],
  priceCents: null,
  isPriceNet: false,
  apartmentType: 'RESIDENTIAL',
  apartmentData: {},
  showPrice: true,
  currency: null,
  externalId: null,
  lastSynchronizedAt: null,
  source: null,
  virtualTourUrl: null,
  assetsIds: [],
  panoramaId: null,
  preferredAngles: [],
  externalUrl: null,
  priceChangeHistory: [],
} satisfies Omit<Required<ApartmentFields>, 'name' | 'buildingId' | 'estateId'>;

export type NewApartment = Required<ApartmentFields> & { id: string; organizationId: string };

const INSERT_COLUMNS = ['id', 'organization_id', ...Object.values(APARTMENT_COLUMNS).map((c) => c.column)];

export const apartmentsRepository = {
  /**
   * Inserts many apartments in one statement: the rows travel as one JSON array expanded by
   * jsonb_populate_recordset, so 5,000 apartments are one round trip inside the caller's transaction.
   */
  async insertMany(db: Queryable, apartments: NewApartment[]): Promise<ApartmentRow[]> {
    const records = apartments.map((a) => {
      const record: Record<string, unknown> = { id: a.id, organization_id: a.organizationId };
      for (const [field, spec] of Object.entries(APARTMENT_COLUMNS) as Array<[keyof ApartmentFields, { column: string }]>) {
        record[spec.column] = a[field];
      }
      return record;
    });
    const cols = INSERT_COLUMNS.join(', ');
    return db.query<ApartmentRow>(`INSERT INTO apartments (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(NULL::apartments, $1::jsonb) RETURNING *`, [
      JSON.stringify(records),
    ]);
  },

  async get(db: Queryable, organizationId: string, id: string, lock = false): Promise<ApartmentRow | undefined> {
    return (
      await db.query<ApartmentRow>(`SELECT * FROM apartments WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [organizationId, id])
    )[0];
  },

  async list(
    db: Queryable,
    organizationId: string,
    filter: { buildingId?: string; estateId?: string; offset: number; limit: number | null },
  ): Promise<{ count: number; rows: ApartmentRow[] }> {
    const where = ['organization_id = $1'];
    const params: unknown[] = [organizationId];
    if (filter.buildingId !== undefined) {
      params.push(filter.buildingId);
      where.push(`building_id = $${params.length}`);
    }
    if (filter.estateId !== undefined) {
      params.push(filter.estateId);
      where.push(`estate_id = $${params.length}`);
    }
    const clause = where.join(' AND ');
    const [{ count }] = (await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM apartments WHERE ${clause}`, params)) as [{ count: number }];
    params.push(filter.offset, filter.limit);
    const rows = await db.query<ApartmentRow>(
      `SELECT * FROM apartments WHERE ${clause} ORDER BY created_at, id OFFSET $${params.length - 1} LIMIT $${params.length}`,
      params,
    );
    return { count, rows };
  },

  update(db: Queryable, organizationId: string, id: string, fields: ApartmentFields): Promise<ApartmentRow | undefined> {
    return updateScoped<ApartmentRow, ApartmentFields>(db, 'apartments', APARTMENT_COLUMNS, organizationId, id, fields);
  },
};
