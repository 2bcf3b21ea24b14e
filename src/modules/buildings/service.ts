import type { Static } from '@sinclair/typebox';
import type { Database, Queryable } from '../../db/client.js';
import { notFound, unprocessable } from '../../errors.js';
import { isUuid, iso, newId } from '../../ids.js';
import { requireEstate } from '../estates/service.js';
import { type BuildingRow, buildingsRepository as repo } from './repository.js';
import type { CreateBuildingBody, UpdateBuildingBody } from './schemas.js';

export interface Building {
  id: string;
  estateId: string;
  name: string;
  description: string | null;
  features: Array<{ name: string; description: string | null; type: string }>;
  source: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toBuilding = (row: BuildingRow): Building => ({
  id: row.id,
  estateId: row.estate_id,
  name: row.name,
  description: row.description,
  features: row.features.map((f) => ({ name: f.name, description: f.description ?? null, type: f.type })),
  source: row.source,
  createdAt: iso(row.created_at)!,
  updatedAt: iso(row.updated_at)!,
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
    if (estateId !== undefined && estateId !== current.estate_id) {
      throw unprocessable('Validation failed: estateId cannot change; a building stays in its estate');
    }
    if (fields.name !== undefined) fields.name = fields.name.trim();
    const row = await repo.update(this.db, organizationId, id, fields);
    if (!row) throw notFound('Building', id);
    return toBuilding(row);
  }
}
