import { describe, expect, it } from 'vitest';
import {
  addDraftPoint,
  addShapes,
  assign,
  cancelDraft,
  closeDraft,
  deletePoint,
  deleteShape,
  duplicateShape,
  emptyDocument,
  fromStored,
  movePoint,
  moveShape,
  toStored,
  unsavable,
} from './document.js';
import { MAX_STEPS, canRedo, canUndo, commit, redo, startHistory, undo } from './history.js';

const render = { width: 1600, height: 1200 };

describe('the editor document', () => {
  it('draws a shape point by point; it closes with three points or more', () => {
    let doc = addDraftPoint(emptyDocument(), { x: 10, y: 10 }, render);
    doc = addDraftPoint(doc, { x: 100.004, y: -5 }, render);
    expect(closeDraft(doc)).toBe(doc);
    doc = addDraftPoint(doc, { x: 2000, y: 50 }, render);
    expect(doc.draft).toEqual([
      { x: 10, y: 10 },
      { x: 100, y: 0 },
      { x: 1600, y: 50 },
    ]);
    const closed = closeDraft(doc);
    expect(closed.draft).toBeNull();
    expect(closed.shapes).toHaveLength(1);
    expect(unsavable(closed)).toBe('1 shape has no apartment or building yet');
    expect(cancelDraft(doc).draft).toBeNull();
  });

  it('keeps a stored path as it was until the shape is edited; then saves its polygon', () => {
    const stored = [{ referenceType: 'apartment' as const, referenceId: 'a1', name: 'A', shape: 'M0 0C0 100 100 100 100 0Z' }];
    const doc = fromStored(stored);
    expect(toStored(doc)).toEqual(stored);
    const moved = moveShape(doc, 0, 10, 0, render);
    expect(toStored(moved)[0]!.shape).toMatch(/^M10 0L/);
    expect(toStored(moved)[0]!.shape).not.toMatch(/C/);
    expect(moveShape(doc, 0, 0, 0, render)).toBe(doc);
  });

  it('moves and deletes points; a ring left with fewer than three points goes, and its shape with it', () => {
    const doc = fromStored([{ referenceType: 'apartment', referenceId: 'a1', shape: 'M0 0L10 0L10 10L0 10Z' }]);
    const moved = movePoint(doc, { shape: 0, ring: 0, point: 2 }, { x: 20, y: 30 }, render);
    expect(toStored(moved)[0]!.shape).toBe('M0 0L10 0L20 30L0 10Z');
    const fewer = deletePoint(moved, { shape: 0, ring: 0, point: 0 });
    expect(toStored(fewer)[0]!.shape).toBe('M10 0L20 30L0 10Z');
    expect(deletePoint(fewer, { shape: 0, ring: 0, point: 0 }).shapes).toEqual([]);
    expect(deleteShape(doc, 0).shapes).toEqual([]);
  });

  it('duplicates a shape without its reference, assigns, and adds copied shapes after the others', () => {
    const doc = fromStored([{ referenceType: 'apartment', referenceId: 'a1', shape: 'M0 0L10 0L10 10Z' }]);
    const two = duplicateShape(doc, 0, 0, 20, render);
    expect(two.shapes[1]!.referenceId).toBeNull();
    expect(two.shapes[1]!.rings[0]![0]).toEqual({ x: 0, y: 20 });
    expect(two.shapes[1]!.key).not.toBe(two.shapes[0]!.key);
    const assigned = assign(two, 1, 'building', 'b1');
    expect(unsavable(assigned)).toBeUndefined();
    expect(toStored(assigned).map((s) => [s.referenceType, s.referenceId])).toEqual([
      ['apartment', 'a1'],
      ['building', 'b1'],
    ]);
    expect(addShapes(assigned, [{ referenceType: 'apartment', referenceId: 'a9', shape: 'M1 1L2 2L3 1Z' }]).shapes).toHaveLength(3);
  });
});

describe('undo and redo', () => {
  it('walks back and forth through every committed state; a new edit drops the redo steps', () => {
    let h = startHistory(0);
    expect(canUndo(h)).toBe(false);
    h = commit(commit(commit(h, 1), 2), 3);
    h = undo(undo(h));
    expect(h.present).toBe(1);
    expect(canRedo(h)).toBe(true);
    h = redo(h);
    expect(h.present).toBe(2);
    h = commit(h, 9);
    expect(canRedo(h)).toBe(false);
    expect(undo(h).present).toBe(2);
    expect(commit(h, h.present)).toBe(h);
    expect(undo(startHistory(0))).toEqual(startHistory(0));
  });

  it('keeps at most MAX_STEPS steps', () => {
    let h = startHistory(0);
    for (let i = 1; i <= MAX_STEPS + 10; i++) h = commit(h, i);
    expect(h.past).toHaveLength(MAX_STEPS);
    expect(h.past[0]).toBe(10);
  });
});
