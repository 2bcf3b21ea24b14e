import type { StoredShape } from './document.js';
import { pathToRings } from './polygons.js';
import type { ParsedSvg } from './svg-import.js';
import type { Size } from './viewport.js';

/** What a shape can point at: an apartment (by name or externalId) or a building (by name) of the estate. */
export interface Reference {
  referenceType: 'apartment' | 'building';
  referenceId: string;
  name: string;
  externalId?: string | null | undefined;
  /** An apartment's status (the editor colours its shapes as the page does). */
  status?: string | null | undefined;
}

export interface MatchedShape {
  /** The name the file gave it. */
  name: string;
  referenceType: Reference['referenceType'];
  referenceId: string;
  /** The apartment's or building's own name, as the report shows it. */
  label: string;
  /** Path data in render pixels. */
  path: string;
}

/** The import report, shown before anything is saved. */
export interface ImportReport {
  matched: MatchedShape[];
  /** Names in the file that name no apartment or building of the estate (or several of them). */
  unmatched: string[];
  /** Names of shapes for a home an earlier shape of the file was already matched to (the first one is used). */
  duplicates: string[];
  /** Shapes without a name of their own (left out). */
  unnamed: number;
  /** Everything else the reader or the matcher noticed. */
  notes: string[];
}

const key = (s: string) => s.trim().toLowerCase();
/** Figma and Illustrator write spaces in ids as underscores ("A 101" becomes id="A_101"). */
const spaced = (s: string) => key(s.replace(/_/g, ' '));

/**
 * Matches the file's shapes to the estate's apartments (externalId first, then name) and buildings
 * (name), case-insensitively; a name the file spells with underscores for spaces matches too.
 * Shapes that reach outside the render are reported, not matched.
 */
export function matchShapes(parsed: ParsedSvg, references: readonly Reference[], render: Size): ImportReport {
  const byExternal = new Map<string, Reference[]>();
  const byName = new Map<string, Reference[]>();
  const push = (map: Map<string, Reference[]>, k: string, r: Reference) => map.set(k, [...(map.get(k) ?? []), r]);
  for (const r of references) {
    if (r.externalId) push(byExternal, key(r.externalId), r);
    push(byName, key(r.name), r);
  }
  const find = (name: string): Reference[] => {
    for (const k of [key(name), spaced(name)]) {
      const found = byExternal.get(k) ?? byName.get(k);
      if (found) return found;
    }
    return [];
  };
  const report: ImportReport = { matched: [], unmatched: [], duplicates: [], unnamed: parsed.unnamed, notes: [...parsed.notes] };
  const used = new Set<string>();
  for (const shape of parsed.shapes) {
    const found = find(shape.name);
    if (found.length !== 1) {
      report.unmatched.push(shape.name);
      if (found.length > 1) report.notes.push(`"${shape.name}" names ${found.length} homes; name it by externalId instead.`);
      continue;
    }
    const target = found[0]!;
    const id = `${target.referenceType}:${target.referenceId}`;
    if (used.has(id)) {
      report.duplicates.push(shape.name);
      continue;
    }
    const outside = pathToRings(shape.path)
      .rings.flat()
      .find((p) => p.x < -0.01 || p.y < -0.01 || p.x > render.width + 0.01 || p.y > render.height + 0.01);
    if (outside) {
      report.unmatched.push(shape.name);
      report.notes.push(`"${shape.name}" reaches outside the render (${outside.x}, ${outside.y}); it was left out.`);
      continue;
    }
    used.add(id);
    report.matched.push({ name: shape.name, referenceType: target.referenceType, referenceId: target.referenceId, label: target.name, path: shape.path });
  }
  return report;
}

/** The key of a shape's home: a matched shape replaces the shape this home had on the frame. */
export const homeKey = (s: { referenceType: string | null; referenceId: string | null }) => `${s.referenceType}:${s.referenceId}`;

/**
 * The frame's shapes after an import: each matched shape becomes its home's shape (replacing the one it
 * had), the others stay, in their order, then the new ones. What the editor adds and the server's
 * no-script import saves.
 */
export function withImported<T extends { referenceType: string | null; referenceId: string | null }>(
  current: readonly T[],
  report: Pick<ImportReport, 'matched'>,
): { kept: T[]; added: StoredShape[] } {
  const replaced = new Set(report.matched.map(homeKey));
  return {
    kept: current.filter((s) => !replaced.has(homeKey(s))),
    added: report.matched.map((m) => ({ referenceType: m.referenceType, referenceId: m.referenceId, shape: m.path })),
  };
}
