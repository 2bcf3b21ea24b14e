import type { Static } from '@sinclair/typebox';
import type { Database, Queryable } from '../../db/client.js';
import { notFound, unprocessable } from '../../errors.js';
import { requireIfMatch } from '../../http/etag.js';
import { isUuid, newId } from '../../ids.js';
import { requireEstate } from '../estates/service.js';
import { changesOf, emitEvent } from '../webhooks/events.js';
import { type BuildingRow, buildingsRepository as repo } from './repository.js';
import type { Building, CreateBuildingBody, ListBuildingsQuery, UpdateBuildingBody } from './schemas.js';

/**
 * The API shape of a stored building: everything but the organization, and every feature with its
 * description (features stored before it was sent carry none: null).
 */
export const toBuilding = ({ organizationId: _, ...row }: BuildingRow): Building => ({
  ...row,
  features: row.features.map((f) => ({ name: f.name, description: f.description ?? null, type: f.type })),
});

export async function requireBuilding(db: Queryable, organizationId: string, id: string, lock = false): Promise<BuildingRow> {
  const row = isUuid(id) ? await (lock ? repo.lock(db, organizationId, id) : repo.get(db, organizationId, id)) : undefined;
  if (!row) throw notFound('Building', id);
  return row;
}

export class BuildingsService {
  constructor(private readonly db: Database) {}

  async create(organizationId: string, input: Static<typeof CreateBuildingBody>): Promise<Building> {
    const estate = await requireEstate(this.db, organizationId, input.estateId);
    const row = await repo.insert(this.db, {
      id: newId(),
      organizationId,
      estateId: estate.id,
      name: input.name.trim(),
      description: input.description ?? null,
      features: input.features ?? [],
      source: input.source ?? null,
    });
    return toBuilding(row);
  }

  /** GET /building?estateId=: a page of the estate's buildings, oldest first; another organization's estate is 404. */
  async list(organizationId: string, query: Static<typeof ListBuildingsQuery>): Promise<{ total: number; offset: number; limit: number; items: Building[] }> {
    const estate = await requireEstate(this.db, organizationId, query.estateId);
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 100;
    const { total, rows } = await repo.pageOfEstate(this.db, organizationId, estate.id, offset, limit);
    return { total, offset, limit, items: rows.map(toBuilding) };
  }

  async get(organizationId: string, id: string): Promise<Building> {
    return toBuilding(await requireBuilding(this.db, organizationId, id));
  }

  /** PATCH of one building; with `ifMatch`, only while that ETag is current (412 otherwise). */
  async update(organizationId: string, id: string, input: Static<typeof UpdateBuildingBody>, ifMatch?: string): Promise<Building> {
    return this.db.transaction(async (tx) => {
      const current = await requireBuilding(tx, organizationId, id, true);
      await requireIfMatch(ifMatch, () => toBuilding(current));
      const { estateId, ...fields } = input;
      if (estateId !== undefined && estateId !== current.estateId) {
        throw unprocessable('Validation failed: estateId cannot change; a building stays in its estate');
      }
      if (fields.name !== undefined) fields.name = fields.name.trim();
      const row = await repo.update(tx, organizationId, current.id, fields);
      if (!row) throw notFound('Building', id);
      const building = toBuilding(row);
      await emitEvent(tx, organizationId, 'building.updated', building, changesOf(toBuilding(current), building));
      return building;
    });
  }
}
