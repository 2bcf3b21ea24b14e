import { clampPoint } from '../polygons.js';
import { panBy } from '../viewport.js';
import { addPoint, cancelDrawing, closeShape, deleteSelected, moveSelected, startDrawing } from './commands.js';
import type { ShapeEditor } from './shape-editor.client.js';

/**
 * The keyboard: every action without a mouse. Anywhere in the editor (outside text fields): Ctrl+Z
 * undo, Ctrl+Shift+Z or Ctrl+Y redo (Cmd on a Mac). In the drawing area: N draws a shape with a
 * crosshair that the arrow keys move (Shift: 10 px), Space adds a point there, Enter closes, Escape
 * cancels; with a shape selected, [ and ] choose a point, arrows move it (or the shape) 1 px (Shift:
 * 10), Delete removes it, Escape lets go; + and - zoom, 0 fits; arrows with nothing selected pan.
 */
export function attachKeyboard(editor: ShapeEditor): () => void {
  const { root } = editor;
  const svg = editor.canvas.svg;

  const history = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement | null;
    if (target?.closest('input, textarea, select')) return;
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k === 'z' && !e.shiftKey) editor.undo();
    else if ((k === 'z' && e.shiftKey) || k === 'y') editor.redo();
    else return;
    e.preventDefault();
  };

  const canvas = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const step = e.shiftKey ? 10 : 1;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const arrow = arrows[e.key];
    const drawing = editor.drawing || editor.live.draft !== null;
    const s = editor.selection;
    if (arrow) {
      if (drawing) {
        const from = editor.cursor ?? editor.live.draft?.[editor.live.draft.length - 1] ?? centre(editor);
        editor.cursor = clampPoint({ x: from.x + arrow[0], y: from.y + arrow[1] }, editor.render.width, editor.render.height);
        editor.refresh(false);
      } else if (s) moveSelected(editor, arrow[0], arrow[1]);
      else editor.setView(panBy(editor.render, editor.view, -arrow[0] * 10, -arrow[1] * 10, editor.unit()));
    } else if (e.key === 'n' || e.key === 'N') {
      if (!drawing) startDrawing(editor);
      editor.cursor = editor.cursor ?? centre(editor);
      editor.refresh(false);
    } else if (e.key === ' ') {
      if (!drawing || !editor.cursor) return;
      addPoint(editor, editor.cursor);
    } else if (e.key === 'Enter') {
      if (!drawing) return;
      closeShape(editor);
    } else if (e.key === 'Escape') {
      if (drawing) cancelDrawing(editor);
      else if (s?.point !== null && s) editor.select({ ...s, point: null });
      else if (s) editor.select(null);
      else return;
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      if (drawing) {
        const draft = editor.live.draft;
        if (draft && draft.length > 0) editor.apply({ ...editor.live, draft: draft.slice(0, -1) }, `Point ${draft.length} removed`);
      } else if (s) deleteSelected(editor);
      else return;
    } else if ((e.key === '[' || e.key === ']') && s) {
      const ring = editor.live.shapes[s.shape]?.rings[s.ring];
      if (!ring || ring.length === 0) return;
      const next = s.point === null ? (e.key === ']' ? 0 : ring.length - 1) : (s.point + (e.key === ']' ? 1 : ring.length - 1)) % ring.length;
      editor.select({ ...s, point: next });
      const p = ring[next]!;
      editor.announce(`Point ${next + 1} of ${ring.length} at ${p.x}, ${p.y}`);
    } else if (e.key === '+' || e.key === '=') editor.zoomBy(1.5);
    else if (e.key === '-') editor.zoomBy(1 / 1.5);
    else if (e.key === '0') editor.panels.fit.click();
    else return;
    e.preventDefault();
  };

  root.addEventListener('keydown', history);
  svg.addEventListener('keydown', canvas);
  return () => {
    root.removeEventListener('keydown', history);
    svg.removeEventListener('keydown', canvas);
  };
}

const centre = (editor: ShapeEditor) => {
  const v = editor.view;
  return { x: Math.round(v.x + v.width / 2), y: Math.round(v.y + v.height / 2) };
};
