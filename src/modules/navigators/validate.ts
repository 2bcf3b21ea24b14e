import { conflict, unprocessable } from '../../errors.js';
import { isUuid, newId } from '../../ids.js';
import { normalisePath } from './path.js';
import type { PoiRecord, ShapeRecord } from './repository.js';
import type { NavigatorOptions, OptionsInput, PoiInput, ShapeInput } from './schemas.js';
import { normaliseColour } from './theme.js';

const MAX_LISTED = 20;

/** One 422 naming every offending field (as schema validation does), at most 20 of them. */
export function failWith(problems: string[]): never {
  const shown = problems.slice(0, MAX_LISTED).join('; ');
  const more = problems.length > MAX_LISTED ? `; and ${problems.length - MAX_LISTED} more` : '';
  throw unprocessable(`Validation failed: ${shown}${more}`);
}

/**
 * The theme as sent, each colour rewritten in the service's spelling (theme.ts); null values stay
 * (they remove the key). Refuses with 422 naming each value that is not a colour.
 */
export function normaliseTheme(theme: Record<string, string | null>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(theme)) {
    if (value === null || key === 'fontFamily') {
      out[key] = value;
      continue;
    }
    const colour = normaliseColour(value);
    if (colour === undefined) problems.push(`options.customTheme.${key} must be a CSS colour (#hex, rgb(), rgba(), hsl(), hsla() or a named colour)`);
    else out[key] = colour;
  }
  if (problems.length > 0) failWith(problems);
  return out;
}

/** The stored options with a PATCH's merged in key by key (the theme too; null removes a theme key). */
export function mergeOptions(current: NavigatorOptions, input: OptionsInput): NavigatorOptions {
  const { customTheme, ...rest } = input;
  const merged = { ...current, ...rest } as NavigatorOptions;
  if (customTheme) {
    const theme: Record<string, string> = { ...current.customTheme };
    for (const [key, value] of Object.entries(normaliseTheme(customTheme))) {
      if (value === null) delete theme[key];
      else theme[key] = value;
    }
    merged.customTheme = theme as NavigatorOptions['customTheme'];
  } else merged.customTheme = { ...current.customTheme };
  return merged;
}

/** A smaller overlay must still hold every shape and POI the navigator has (409 otherwise). */
export function requireOverlayHolds(options: NavigatorOptions, extent: { maxX: number; maxY: number }): void {
  if (extent.maxX > options.overlayWidth) {
    throw conflict(`options.overlayWidth ${options.overlayWidth} is smaller than the navigator's shapes or POIs reach (x = ${extent.maxX}); change them first`);
  }
  if (extent.maxY > options.overlayHeight) {
    throw conflict(
      `options.overlayHeight ${options.overlayHeight} is smaller than the navigator's shapes or POIs reach (y = ${extent.maxY}); change them first`,
    );
  }
}

/** Shapes with their paths normalised, and the problems of each item by `[i].field`. */
export function prepareShapes(items: ShapeInput[], width: number, height: number): { records: ShapeRecord[]; problems: string[] } {
  const records: ShapeRecord[] = [];
  const problems: string[] = [];
  items.forEach((item, i) => {
    const path = normalisePath(item.shape, width, height);
    if (!path.ok) problems.push(`[${i}].shape ${path.problem}`);
    if (!isUuid(item.referenceId)) problems.push(`[${i}].referenceId must be the id of ${article(item.referenceType)} of the navigator's estate`);
    if (!path.ok) return;
    const id = item.referenceId.toLowerCase();
    records.push({
      id: newId(),
      position: i,
      name: item.name ?? null,
      description: item.description ?? null,
      apartment_id: item.referenceType === 'apartment' ? id : null,
      building_id: item.referenceType === 'building' ? id : null,
      shape: path.value.path,
      max_x: path.value.maxX,
      max_y: path.value.maxY,
    });
  });
  return { records, problems };
}

/** The problems of shapes whose reference is not an apartment (or building) of the estate. */
export function referenceProblems(items: ShapeInput[], apartments: Set<string>, buildings: Set<string>): string[] {
  const problems: string[] = [];
  items.forEach((item, i) => {
    if (!isUuid(item.referenceId)) return;
    const found = (item.referenceType === 'apartment' ? apartments : buildings).has(item.referenceId.toLowerCase());
    if (!found) problems.push(`[${i}].referenceId must be the id of ${article(item.referenceType)} of the navigator's estate`);
  });
  return problems;
}

const article = (type: string) => (type === 'apartment' ? 'an apartment' : 'a building');

/** POIs inside the overlay, and the problems of each item by `[i].field`. */
export function preparePois(items: PoiInput[], width: number, height: number, panoramas: Set<string>): { records: PoiRecord[]; problems: string[] } {
  const records: PoiRecord[] = [];
  const problems: string[] = [];
  items.forEach((item, i) => {
    if (item.x < 0 || item.x > width) problems.push(`[${i}].x must be within 0..${width} (options.overlayWidth)`);
    if (item.y < 0 || item.y > height) problems.push(`[${i}].y must be within 0..${height} (options.overlayHeight)`);
    for (const field of ['panoramaId', 'startingPanoramaId'] as const) {
      const id = item.data[field];
      if (id != null && !(isUuid(id) && panoramas.has(id.toLowerCase())))
        problems.push(`[${i}].data.${field} must be the id of a panorama of the organization`);
    }
    records.push({
      id: newId(),
      position: i,
      x: item.x,
      y: item.y,
      type: item.data.type,
      panorama_id: item.data.panoramaId?.toLowerCase() ?? null,
      starting_panorama_id: item.data.startingPanoramaId?.toLowerCase() ?? null,
    });
  });
  return { records, problems };
}
