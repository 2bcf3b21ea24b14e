import type { Static } from '@sinclair/typebox';
import type { Database, Queryable } from '../../db/client.js';
import { notFound, unprocessable } from '../../errors.js';
import { isUuid, newId } from '../../ids.js';
import { requireEstate } from '../estates/service.js';
import { type BuildingRow, buildingsRepository as repo } from './repository.js';
import type { Building, CreateBuildingBody, UpdateBuildingBody } from './schemas.js';

/**
 * The API shape of a stored building: everything but the organization, and every feature with its
 * description (features stored before it was sent carry none: null).
 */
export const toBuilding = ({ organizationId: _, ...row }: BuildingRow): Building => ({
  ...row,
  features: row.features.map((f) => ({ name: f.name, description: f.description ?? null, type: f.type })),
});

export async function requireBuilding(db: Queryable, organizationId: string, id: string): Promise<BuildingRow> {
  const row = isUuid(id) ? await repo.get(db, organizationId, id) : undefined;
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

  async get(organizationId: string, id: string): Promise<Building> {
    return toBuilding(await requireBuilding(this.db, organizationId, id));
  }

  async update(organizationId: string, id: string, input: Static<typeof UpdateBuildingBody>): Promise<Building> {
    const current = await requireBuilding(this.db, organizationId, id);
    const { estateId, ...fields } = input;
    if (estateId !== undefined && estateId !== current.estateId) {
      throw unprocessable('Validation failed: estateId cannot change; a building stays in its estate');
    }
    if (fields.name !== undefined) fields.name = fields.name.trim();
    const row = await repo.update(this.db, organizationId, id, fields);
    if (!row) throw notFound('Building', id);
    return toBuilding(row);
  }
}
