import type { Static } from '@sinclair/typebox';
import type { Database, Queryable } from '../../db/client.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { isUuid, newId } from '../../ids.js';
import { requireOwnedAssets } from '../assets/ownership.js';
import { type BuildingRow, buildingsRepository } from '../buildings/repository.js';
import { requireBuilding, toBuilding } from '../buildings/service.js';
import { APARTMENT_DEFAULTS, type ApartmentPatch, type ApartmentRow, type NewApartment, apartmentsRepository as repo } from './repository.js';
import type { Apartment, BulkApartmentsBody, CreateApartmentBody, ListApartmentsQuery, UpdateApartmentBody } from './schemas.js';

/** The API shape of a stored apartment: everything but the organization, with its building embedded. */
export const toApartment = ({ organizationId: _, ...row }: ApartmentRow, building: BuildingRow): Apartment => ({ ...row, building: toBuilding(building) });

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

  private newApartment(organizationId: string, building: BuildingRow, item: ItemInput): NewApartment {
    return {
      ...APARTMENT_DEFAULTS,
      ...item,
      id: newId(),
      organizationId,
      buildingId: building.id,
      estateId: building.estateId,
      name: item.name.trim(),
      apartmentData: stripNulls(item.apartmentData),
      assetsIds: dedupe(item.assetsIds ?? []),
      priceChangeHistory: [],
    };
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
    return toApartment(row, (await buildingsRepository.get(this.db, organizationId, row.buildingId))!);
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
    return { count, items: rows.map((r) => toApartment(r, buildings.get(r.buildingId)!)) };
  }

  /** The buildings of a page of apartments in one query, never one per apartment. */
  private async buildingsOf(organizationId: string, rows: ApartmentRow[]): Promise<Map<string, BuildingRow>> {
    const found = await buildingsRepository.listByIds(this.db, organizationId, [...new Set(rows.map((r) => r.buildingId))]);
    return new Map(found.map((b) => [b.id, b]));
  }

  async update(organizationId: string, id: string, input: Static<typeof UpdateApartmentBody>): Promise<Apartment> {
    return this.db.transaction(async (tx) => {
      const current = await requireApartment(tx, organizationId, id, true);
      const { buildingId, name, assetsIds, apartmentData, ...rest } = input;
      const fields: ApartmentPatch = rest;
      let building: BuildingRow | undefined;
      if (buildingId !== undefined && buildingId.toLowerCase() !== current.buildingId) {
        building = await requireBuilding(tx, organizationId, buildingId);
        fields.buildingId = building.id;
        fields.estateId = building.estateId;
      }
      if (name !== undefined) fields.name = name.trim();
      if (assetsIds !== undefined) {
        fields.assetsIds = dedupe(assetsIds);
        await requireOwnedAssets(tx, organizationId, fields.assetsIds);
      }
      if (apartmentData !== undefined) fields.apartmentData = mergeData(current.apartmentData, apartmentData);
      if (input.priceCents !== undefined && input.priceCents !== current.priceCents && current.priceCents !== null) {
        fields.priceChangeHistory = [
          ...current.priceChangeHistory,
          { date: new Date().toISOString(), priceCentsBefore: current.priceCents, priceCentsAfter: input.priceCents },
        ];
      }
      const row = (await repo.update(tx, organizationId, id, fields))!;
      building ??= (await buildingsRepository.get(tx, organizationId, row.buildingId))!;
      return toApartment(row, building);
    });
  }
}
