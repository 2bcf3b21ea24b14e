import { isDeepStrictEqual } from 'node:util';
import type { Static } from '@sinclair/typebox';
import { iso } from '../../ids.js';
import type { BuildingRow } from '../buildings/repository.js';
import type { ApartmentPatch, ApartmentRow } from './repository.js';
import type { UpdateApartmentBody } from './schemas.js';

/** The fields of a PATCH of one apartment, its building already resolved. */
export type PatchInput = Omit<Static<typeof UpdateApartmentBody>, 'buildingId'>;

/** apartmentData on PATCH merges into the stored object; a key sent as null is removed. */
export function mergeData(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  return merged;
}

export const dedupe = (ids: string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];

/** One apartment's PATCH worked out before it is written: the fields to set, the row after, and whether anything but the sync stamp changes. */
export interface PlannedPatch {
  before: ApartmentRow;
  fields: ApartmentPatch;
  after: ApartmentRow;
  changed: boolean;
}

/**
 * PATCH semantics on one stored apartment, the same for PATCH /apartment/{id}, the bulk PATCH and the
 * upsert: fields sent replace, apartmentData merges, a priceCents change is recorded in
 * priceChangeHistory, and `target` (when it is another building) moves the apartment there.
 */
export function planPatch(before: ApartmentRow, input: PatchInput, target: BuildingRow | undefined, at: string): PlannedPatch {
  const { name, assetsIds, apartmentData, lastSynchronizedAt, ...rest } = input;
  const fields: ApartmentPatch = { ...rest };
  if (target && target.id !== before.buildingId) {
    fields.buildingId = target.id;
    fields.estateId = target.estateId;
  }
  if (name !== undefined) fields.name = name.trim();
  if (assetsIds !== undefined) fields.assetsIds = dedupe(assetsIds);
  if (apartmentData !== undefined) fields.apartmentData = mergeData(before.apartmentData, apartmentData);
  if (lastSynchronizedAt !== undefined) fields.lastSynchronizedAt = iso(lastSynchronizedAt);
  if (input.priceCents !== undefined && input.priceCents !== before.priceCents && before.priceCents !== null) {
    fields.priceChangeHistory = [...before.priceChangeHistory, { date: at, priceCentsBefore: before.priceCents, priceCentsAfter: input.priceCents }];
  }
  const changed = Object.entries(fields).some(([k, v]) => k !== 'lastSynchronizedAt' && !isDeepStrictEqual(v, before[k as keyof ApartmentRow]));
  return { before, fields, after: { ...before, ...fields } as ApartmentRow, changed };
}
