import { type Ring, type VertexRef, clampPoint, pathToRings, ringsToPath, translateRings } from './polygons.js';
import type { Point, Size } from './viewport.js';

/**
 * What the shape editor edits, as plain immutable values: the frame's shapes and the one being drawn.
 * Every edit is a function from one document to the next, so undo and redo are a list of documents
 * (history.ts) and the island only holds state and events.
 */

export interface EditorShape {
  /** The editor's own key (stable while the screen is open; not stored). */
  key: string;
  rings: Ring[];
  referenceType: 'apartment' | 'building' | null;
  referenceId: string | null;
  name: string | null;
  description: string | null;
  /** The stored path while the shape is untouched: saved as it was (curves kept); dropped by any edit. */
  original: string | null;
}

export interface EditorDocument {
  shapes: readonly EditorShape[];
  /** The points of the shape being drawn, or null. */
  draft: readonly Point[] | null;
}

/** A shape as the API stores it (GET/PUT …/images/{imageId}/shapes). */
export interface StoredShape {
  name?: string | null;
  description?: string | null;
  referenceType: 'apartment' | 'building';
  referenceId: string;
  shape: string;
}

let counter = 0;
/** A key no other shape of this page has. */
export const newKey = () => `s${++counter}`;

export const emptyDocument = (): EditorDocument => ({ shapes: [], draft: null });

/** The editor's document for stored shapes. */
export function fromStored(stored: readonly StoredShape[]): EditorDocument {
  return {
    draft: null,
    shapes: stored.map((s) => ({
      key: newKey(),
      rings: pathToRings(s.shape).rings,
      referenceType: s.referenceType,
      referenceId: s.referenceId,
      name: s.name ?? null,
      description: s.description ?? null,
      original: s.shape,
    })),
  };
}

/** Why the document cannot be saved yet (shapes without a reference), or undefined. */
export function unsavable(doc: EditorDocument): string | undefined {
  const missing = doc.shapes.filter((s) => !s.referenceId).length;
  if (missing > 0) return `${missing} ${missing === 1 ? 'shape has' : 'shapes have'} no apartment or building yet`;
  return undefined;
}

/** The body of the shapes PUT. Shapes without a reference are left out: check unsavable() first. */
export function toStored(doc: EditorDocument): StoredShape[] {
  return doc.shapes
    .filter((s) => s.referenceType && s.referenceId)
    .map((s) => ({
      ...(s.name ? { name: s.name } : {}),
      ...(s.description ? { description: s.description } : {}),
      referenceType: s.referenceType!,
      referenceId: s.referenceId!,
      shape: s.original ?? ringsToPath(s.rings),
    }));
}

const replaceShape = (doc: EditorDocument, index: number, shape: EditorShape): EditorDocument => ({
  ...doc,
  shapes: doc.shapes.map((s, i) => (i === index ? shape : s)),
});

/** Adds a point to the shape being drawn (starting one when none is). */
export function addDraftPoint(doc: EditorDocument, p: Point, render: Size): EditorDocument {
  return { ...doc, draft: [...(doc.draft ?? []), clampPoint(p, render.width, render.height)] };
}

/** Closes the shape being drawn into a new shape (at least three points), else leaves the document as it is. */
export function closeDraft(doc: EditorDocument): EditorDocument {
  if (!doc.draft || doc.draft.length < 3) return doc;
  const shape: EditorShape = {
    key: newKey(),
    rings: [[...doc.draft]],
    referenceType: null,
    referenceId: null,
    name: null,
    description: null,
    original: null,
  };
  return { shapes: [...doc.shapes, shape], draft: null };
}

export const cancelDraft = (doc: EditorDocument): EditorDocument => ({ ...doc, draft: null });

/** Moves one point of a shape to `p` (kept inside the render). */
export function movePoint(doc: EditorDocument, at: VertexRef, p: Point, render: Size): EditorDocument {
  const shape = doc.shapes[at.shape];
  if (!shape?.rings[at.ring]?.[at.point]) return doc;
  const rings = shape.rings.map((ring, r) => (r === at.ring ? ring.map((q, i) => (i === at.point ? clampPoint(p, render.width, render.height) : q)) : ring));
  return replaceShape(doc, at.shape, { ...shape, rings, original: null });
}

/** Moves a whole shape by (dx, dy) render pixels, stopping at the render's edges. */
export function moveShape(doc: EditorDocument, index: number, dx: number, dy: number, render: Size): EditorDocument {
  const shape = doc.shapes[index];
  if (!shape || (dx === 0 && dy === 0)) return doc;
  return replaceShape(doc, index, { ...shape, rings: translateRings(shape.rings, dx, dy, render.width, render.height), original: null });
}

/** Removes one point; a ring left with fewer than three goes, and a shape left with no ring goes too. */
export function deletePoint(doc: EditorDocument, at: VertexRef): EditorDocument {
  const shape = doc.shapes[at.shape];
  if (!shape?.rings[at.ring]) return doc;
  const rings = shape.rings.map((ring, r) => (r === at.ring ? ring.filter((_, i) => i !== at.point) : ring)).filter((ring) => ring.length >= 3);
  if (rings.length === 0) return deleteShape(doc, at.shape);
  return replaceShape(doc, at.shape, { ...shape, rings, original: null });
}

export const deleteShape = (doc: EditorDocument, index: number): EditorDocument => ({ ...doc, shapes: doc.shapes.filter((_, i) => i !== index) });

/** A copy of a shape moved by (dx, dy), with no reference (stacked floors: the same outline one floor up). */
export function duplicateShape(doc: EditorDocument, index: number, dx: number, dy: number, render: Size): EditorDocument {
  const shape = doc.shapes[index];
  if (!shape) return doc;
  const copy: EditorShape = {
    ...shape,
    key: newKey(),
    rings: translateRings(shape.rings, dx, dy, render.width, render.height),
    referenceType: null,
    referenceId: null,
    name: null,
    original: null,
  };
  return { ...doc, shapes: [...doc.shapes, copy] };
}

/** Points a shape at an apartment or building. */
export function assign(doc: EditorDocument, index: number, referenceType: 'apartment' | 'building', referenceId: string): EditorDocument {
  const shape = doc.shapes[index];
  if (!shape) return doc;
  return replaceShape(doc, index, { ...shape, referenceType, referenceId });
}

/** Adds shapes (copied from another frame, or imported) after the ones there are. */
export function addShapes(doc: EditorDocument, stored: readonly StoredShape[]): EditorDocument {
  return { ...doc, shapes: [...doc.shapes, ...fromStored(stored).shapes] };
}
