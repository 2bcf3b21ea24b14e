import type { Static } from '@sinclair/typebox';
import type { Database, Queryable } from '../../db/client.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { isUuid, iso, newId } from '../../ids.js';
import { requireOwnedAssets } from '../assets/ownership.js';
import { type BuildingRow, buildingsRepository } from '../buildings/repository.js';
import { type Building, requireBuilding, toBuilding } from '../buildings/service.js';
import { APARTMENT_DEFAULTS, type ApartmentFields, type ApartmentRow, apartmentsRepository as repo } from './repository.js';
import type { BulkApartmentsBody, CreateApartmentBody, ListApartmentsQuery, UpdateApartmentBody } from './schemas.js';

export interface Apartment {
  id: string;
  name: string;
  isPromoted: boolean;
  description: string | null;
  status: string;
  floorPlanUrls: string[];
  floorPlanPreviewUrls: string[];
  floorPlan3dPreviewUrls: string[];
  priceCents: number | null;
  isPriceNet: boolean;
  apartmentType: string;
  apartmentData: Record<string, unknown>;
  buildingId: string;
  estateId: string;
  showPrice: boolean;
  currency: string | null;
  building: Building;
  externalId: string | null;
  lastSynchronizedAt: string | null;
  source: string | null;
  virtualTourUrl: string | null;
  assetsIds: string[];
  panoramaId: string | null;
  preferredAngles: ApartmentRow['preferred_angles'];
  externalUrl: string | null;
  priceChangeHistory: ApartmentRow['price_change_history'];
  createdAt: string;
  updatedAt: string;
}

export const toApartment = (row: ApartmentRow, building: BuildingRow): Apartment => ({
  id: row.id,
  name: row.name,
  isPromoted: row.is_promoted,
  description: row.description,
  status: row.status,
  floorPlanUrls: row.floor_plan_urls,
  floorPlanPreviewUrls: row.floor_plan_preview_urls,
  floorPlan3dPreviewUrls: row.floor_plan_3d_preview_urls,
  priceCents: row.price_cents,
  isPriceNet: row.is_price_net,
  apartmentType: row.apartment_type,
  apartmentData: row.apartment_data,
  buildingId: row.building_id,
  estateId: row.estate_id,
  showPrice: row.show_price,
  currency: row.currency,
  building: toBuilding(building),
  externalId: row.external_id,
  lastSynchronizedAt: iso(row.last_synchronized_at),
  source: row.source,
  virtualTourUrl: row.virtual_tour_url,
  assetsIds: row.assets_ids,
  panoramaId: row.panorama_id,
  preferredAngles: row.preferred_angles,
  externalUrl: row.external_url,
  priceChangeHistory: row.price_change_history,
  createdAt: iso(row.created_at)!,
  updatedAt: iso(row.updated_at)!,
});

type ItemInput = Omit<Static<typeof CreateApartmentBody>, 'buildingId'>;

/** apartmentData on PATCH merges into the stored object; a key sent as null is removed. */
function mergeData(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  return merged;
}

const stripNulls = (data: Record<string, unknown> | undefined) => mergeData({}, data ?? {});
const dedupe = (ids: string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];
const normalName = (name: string) => name.trim().toLowerCase();

export async function requireApartment(db: Queryable, organizationId: string, id: string, lock = false): Promise<ApartmentRow> {
  const row = isUuid(id) ? await repo.get(db, organizationId, id, lock) : undefined;
  if (!row) throw notFound('Apartment', id);
  return row;
}

export class ApartmentsService {
  constructor(private readonly db: Database) {}

  private newApartment(organizationId: string, building: BuildingRow, item: ItemInput) {
    return {
      ...APARTMENT_DEFAULTS,
      ...item,
      id: newId(),
      organizationId,
      buildingId: building.id,
      estateId: building.estate_id,
      name: item.name.trim(),
      apartmentData: stripNulls(item.apartmentData),
      assetsIds: dedupe(item.assetsIds ?? []),
      priceChangeHistory: [],
    } as Parameters<typeof repo.insertMany>[1][number];
  }

  async create(organizationId: string, input: Static<typeof CreateApartmentBody>): Promise<Apartment> {
    const { buildingId, ...item } = input;
    const building = await requireBuilding(this.db, organizationId, buildingId);
    await requireOwnedAssets(this.db, organizationId, item.assetsIds ?? []);
    const [row] = await repo.insertMany(this.db, [this.newApartment(organizationId, building, item)]);
    return toApartment(row!, building);
  }

  /** All or nothing: validation, duplicate names and asset ownership are checked before one insert in one transaction. */
  async bulkCreate(organizationId: string, input: Static<typeof BulkApartmentsBody>): Promise<{ created: number }> {
    const seen = new Map<string, number>();
    input.apartments.forEach((item, i) => {
      const key = normalName(item.name);
      const first = seen.get(key);
      if (first !== undefined) throw conflict(`apartments[${i}].name "${item.name.trim()}" repeats apartments[${first}].name in this request`);
      seen.set(key, i);
    });
    return this.db.transaction(async (tx) => {
      const building = await requireBuilding(tx, organizationId, input.buildingId);
      await requireOwnedAssets(
        tx,
        organizationId,
        input.apartments.flatMap((a) => a.assetsIds ?? []),
      );
      const rows = await repo.insertMany(
        tx,
        input.apartments.map((item) => this.newApartment(organizationId, building, item)),
      );
      return { created: rows.length };
    });
  }

  async get(organizationId: string, id: string): Promise<Apartment> {
    const row = await requireApartment(this.db, organizationId, id);
    return toApartment(row, (await buildingsRepository.get(this.db, organizationId, row.building_id))!);
  }

  async list(organizationId: string, query: Static<typeof ListApartmentsQuery>): Promise<{ count: number; items: Apartment[] }> {
    if (query.organizationId !== undefined && query.organizationId.toLowerCase() !== organizationId) {
      throw forbidden('organizationId names another organization; a key only lists its own apartments');
    }
    if ((query.buildingId !== undefined && !isUuid(query.buildingId)) || (query.estateId !== undefined && !isUuid(query.estateId))) {
      return { count: 0, items: [] };
    }
    const { count, rows } = await repo.list(this.db, organizationId, {
      ...(query.buildingId !== undefined ? { buildingId: query.buildingId } : {}),
      ...(query.estateId !== undefined ? { estateId: query.estateId } : {}),
      offset: query.offset ?? 0,
      limit: query.limit ?? null,
    });
    const buildings = await this.buildingsOf(organizationId, rows);
    return { count, items: rows.map((r) => toApartment(r, buildings.get(r.building_id)!)) };
  }

  /** The buildings of a page of apartments in one query, never one per apartment. */
  private async buildingsOf(organizationId: string, rows: ApartmentRow[]): Promise<Map<string, BuildingRow>> {
    const ids = [...new Set(rows.map((r) => r.building_id))];
    if (ids.length === 0) return new Map();
    const found = await this.db.query<BuildingRow>('SELECT * FROM buildings WHERE organization_id = $1 AND id = ANY($2::uuid[])', [organizationId, ids]);
    return new Map(found.map((b) => [b.id, b]));
  }

  async update(organizationId: string, id: string, input: Static<typeof UpdateApartmentBody>): Promise<Apartment> {
    return this.db.transaction(async (tx) => {
      const current = await requireApartment(tx, organizationId, id, true);
      const fields: ApartmentFields = { ...input } as ApartmentFields;
      let building: BuildingRow | undefined;
      if (input.buildingId !== undefined && input.buildingId.toLowerCase() !== current.building_id) {
        building = await requireBuilding(tx, organizationId, input.buildingId);
        fields.buildingId = building.id;
        fields.estateId = building.estate_id;
      } else fields.buildingId = undefined;
      if (input.name !== undefined) fields.name = input.name.trim();
      if (input.assetsIds !== undefined) {
        fields.assetsIds = dedupe(input.assetsIds);
        await requireOwnedAssets(tx, organizationId, fields.assetsIds);
      }
      if (input.apartmentData !== undefined) fields.apartmentData = mergeData(current.apartment_data, input.apartmentData);
      if (input.priceCents !== undefined && input.priceCents !== current.price_cents && current.price_cents !== null) {
        fields.priceChangeHistory = [
          ...current.price_change_history,
          { date: new Date().toISOString(), priceCentsBefore: current.price_cents, priceCentsAfter: input.priceCents },
        ];
      }
      const row = (await repo.update(tx, organizationId, id, fields))!;
      building ??= (await buildingsRepository.get(tx, organizationId, row.building_id))!;
      return toApartment(row, building);
    });
  }
}
