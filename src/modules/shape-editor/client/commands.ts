import { addDraftPoint, assign, cancelDraft, closeDraft, deletePoint, deleteShape, duplicateShape, movePoint, moveShape } from '../document.js';
import type { Reference } from '../svg-match.js';
import type { Point } from '../viewport.js';
import type { ShapeEditor } from './shape-editor.client.js';

/**
 * The editing commands the pointer, the keyboard and the buttons share: each turns the selection and
 * the document into the next document (document.ts), records it for undo and says what happened.
 */

/** How far a duplicated shape lands from its original (render pixels): visibly apart, then moved. */
const DUPLICATE_OFFSET = 20;

export function startDrawing(editor: ShapeEditor): void {
  editor.drawing = true;
  editor.selection = null;
  editor.refresh();
  editor.announce('Drawing a new shape: add points, then click the first point or press Enter to close it');
}

export function addPoint(editor: ShapeEditor, p: Point): void {
  const next = addDraftPoint(editor.live, p, editor.render);
  const added = next.draft![next.draft!.length - 1]!;
  editor.apply(next, `Point ${next.draft!.length} added at ${added.x}, ${added.y}`);
}

export function closeShape(editor: ShapeEditor): void {
  const draft = editor.live.draft;
  if (!draft || draft.length < 3) {
    editor.announce('A shape needs at least three points');
    return;
  }
  const next = closeDraft(editor.live);
  editor.drawing = false;
  editor.cursor = null;
  editor.selection = { shape: next.shapes.length - 1, ring: 0, point: null };
  editor.apply(next, `Shape closed with ${draft.length} points; choose its apartment or building`);
}

export function cancelDrawing(editor: ShapeEditor): void {
  editor.drawing = false;
  editor.cursor = null;
  if (editor.live.draft) editor.apply(cancelDraft(editor.live), 'Drawing cancelled');
  else editor.refresh();
}

export function deleteSelected(editor: ShapeEditor): void {
  const s = editor.selection;
  if (!s) return;
  if (s.point !== null) {
    const next = deletePoint(editor.live, { shape: s.shape, ring: s.ring, point: s.point });
    editor.selection = next.shapes.length === editor.live.shapes.length ? { ...s, point: null } : null;
    editor.apply(next, 'Point deleted');
  } else {
    editor.selection = null;
    editor.apply(deleteShape(editor.live, s.shape), 'Shape deleted');
  }
}

export function moveSelected(editor: ShapeEditor, dx: number, dy: number): void {
  const s = editor.selection;
  if (!s) return;
  if (s.point !== null) {
    const p = editor.live.shapes[s.shape]?.rings[s.ring]?.[s.point];
    if (!p) return;
    const moved = { x: p.x + dx, y: p.y + dy };
    const next = movePoint(editor.live, { shape: s.shape, ring: s.ring, point: s.point }, moved, editor.render);
    const q = next.shapes[s.shape]!.rings[s.ring]![s.point]!;
    editor.apply(next, `Point moved to ${q.x}, ${q.y}`);
  } else editor.apply(moveShape(editor.live, s.shape, dx, dy, editor.render), 'Shape moved');
}

export function assignSelected(editor: ShapeEditor, r: Reference): void {
  const s = editor.selection;
  if (!s) return;
  editor.apply(assign(editor.live, s.shape, r.referenceType, r.referenceId), `Shape ${s.shape + 1} is ${r.name}`);
}

/** A copy of the selected shape (stacked floors), selected, without a reference yet. */
export function duplicateSelected(editor: ShapeEditor): void {
  const s = editor.selection;
  if (!s) return;
  const next = duplicateShape(editor.live, s.shape, DUPLICATE_OFFSET, DUPLICATE_OFFSET, editor.render);
  editor.selection = { shape: next.shapes.length - 1, ring: 0, point: null };
  editor.apply(next, 'Shape duplicated; move it and choose its apartment or building');
}
