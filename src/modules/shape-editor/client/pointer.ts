import { type EditorDocument, movePoint, moveShape } from '../document.js';
import { type VertexRef, nearestVertex, shapeAt, snapPoint } from '../polygons.js';
import { type Box, type Point, clientToRender, panBy, parseAspectRatio, zoomAround } from '../viewport.js';
import { addPoint, closeShape, startDrawing } from './commands.js';
import type { ShapeEditor } from './shape-editor.client.js';

/** Screen pixels: how near a point must be to grab it, snap to it or close a shape on it. */
const HIT_RADIUS = 10;
/** Screen pixels a press may move and still be a click (beyond: a drag). */
const CLICK_SLOP = 4;

type Gesture =
  | { kind: 'press'; start: Point; closes: boolean }
  | { kind: 'pan'; last: Point }
  | { kind: 'point'; at: VertexRef; base: EditorDocument; moved: boolean }
  | { kind: 'shape'; index: number; from: Point; base: EditorDocument; moved: boolean }
  | { kind: 'pinch'; distance: number; view: Box; anchor: Point };

/**
 * Pointer input of the drawing area (mouse, pen and touch alike, through Pointer Events): a click adds
 * a point (a first one on empty space starts a shape), a press on a point or a shape drags it, a drag
 * on empty space or with Space held pans, two fingers pinch-zoom, the wheel zooms around the pointer.
 * Alt held while placing or dragging a point turns snapping off.
 */
export function attachPointer(editor: ShapeEditor): () => void {
  const svg = editor.canvas.svg;
  const pointers = new Map<number, Point>();
  let gesture: Gesture | undefined;
  let spaceHeld = false;

  const toRender = (client: Point) =>
    clientToRender(client, svg.getBoundingClientRect(), editor.view, parseAspectRatio(svg.getAttribute('preserveAspectRatio')));
  const ringsOf = (doc: EditorDocument) => doc.shapes.map((s) => s.rings);
  const client = (e: PointerEvent | WheelEvent): Point => ({ x: e.clientX, y: e.clientY });

  const startPinch = () => {
    const [a, b] = [...pointers.values()];
    if (!a || !b) return;
    if (gesture && (gesture.kind === 'point' || gesture.kind === 'shape')) editor.preview(gesture.base);
    gesture = {
      kind: 'pinch',
      distance: Math.hypot(a.x - b.x, a.y - b.y) || 1,
      view: editor.view,
      anchor: toRender({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }),
    };
  };

  const down = (e: PointerEvent) => {
    if (e.button !== 0 && e.button !== 1) return;
    e.preventDefault();
    svg.focus({ preventScroll: true });
    svg.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, client(e));
    if (pointers.size === 2) return startPinch();
    if (pointers.size > 2) return;
    if (spaceHeld || e.button === 1) {
      gesture = { kind: 'pan', last: client(e) };
      return;
    }
    const p = toRender(client(e));
    const radius = HIT_RADIUS * editor.unit();
    const doc = editor.live;
    if (editor.drawing || doc.draft) {
      const first = doc.draft?.[0];
      const closes = !!first && doc.draft!.length >= 3 && Math.hypot(first.x - p.x, first.y - p.y) <= radius;
      gesture = { kind: 'press', start: client(e), closes };
      return;
    }
    const rings = ringsOf(doc);
    const selected = editor.selection?.shape;
    const vertex =
      (selected === undefined
        ? undefined
        : nearestVertex(
            p,
            rings.map((r, i) => (i === selected ? r : [])),
            radius,
          )) ?? nearestVertex(p, rings, radius);
    if (vertex) {
      editor.select({ shape: vertex.shape, ring: vertex.ring, point: vertex.point });
      gesture = { kind: 'point', at: vertex, base: doc, moved: false };
      return;
    }
    const hit = shapeAt(p, rings);
    if (hit >= 0) {
      editor.select({ shape: hit, ring: 0, point: null });
      gesture = { kind: 'shape', index: hit, from: p, base: doc, moved: false };
      return;
    }
    gesture = { kind: 'press', start: client(e), closes: false };
  };

  const move = (e: PointerEvent) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, client(e));
    const g = gesture;
    if (!g) return;
    if (g.kind === 'pinch') {
      const [a, b] = [...pointers.values()];
      if (!a || !b) return;
      const factor = Math.hypot(a.x - b.x, a.y - b.y) / g.distance;
      editor.setView(zoomAround(editor.render, g.view, factor, g.anchor));
    } else if (g.kind === 'press') {
      if (Math.hypot(e.clientX - g.start.x, e.clientY - g.start.y) > CLICK_SLOP) gesture = { kind: 'pan', last: g.start };
      if (gesture?.kind === 'pan') move(e);
    } else if (g.kind === 'pan') {
      editor.setView(panBy(editor.render, editor.view, e.clientX - g.last.x, e.clientY - g.last.y, editor.unit()));
      g.last = client(e);
    } else if (g.kind === 'point') {
      const p = snapPoint(toRender(client(e)), ringsOf(g.base), HIT_RADIUS * editor.unit(), g.at.shape, e.altKey);
      g.moved = true;
      editor.preview(movePoint(g.base, g.at, p, editor.render));
    } else if (g.kind === 'shape') {
      const p = toRender(client(e));
      g.moved = true;
      editor.preview(moveShape(g.base, g.index, p.x - g.from.x, p.y - g.from.y, editor.render));
    }
  };

  const up = (e: PointerEvent) => {
    if (!pointers.delete(e.pointerId)) return;
    const g = gesture;
    if (pointers.size > 0) {
      // One finger of a pinch lifted: the other one pans from here.
      const rest = [...pointers.values()][0];
      gesture = rest && g?.kind === 'pinch' ? { kind: 'pan', last: rest } : g;
      return;
    }
    gesture = undefined;
    if (!g) return;
    if (g.kind === 'press') {
      if (g.closes) return closeShape(editor);
      if (!editor.drawing && !editor.live.draft) startDrawing(editor);
      const p = snapPoint(toRender(client(e)), ringsOf(editor.live), HIT_RADIUS * editor.unit(), undefined, e.altKey);
      addPoint(editor, p);
    } else if (g.kind === 'point' && g.moved) {
      const q = editor.live.shapes[g.at.shape]?.rings[g.at.ring]?.[g.at.point];
      editor.finishDrag(q ? `Point moved to ${q.x}, ${q.y}` : undefined);
    } else if (g.kind === 'shape' && g.moved) editor.finishDrag('Shape moved');
  };

  const cancel = (e: PointerEvent) => {
    pointers.delete(e.pointerId);
    if (gesture && (gesture.kind === 'point' || gesture.kind === 'shape')) editor.preview(gesture.base);
    gesture = undefined;
  };

  const wheel = (e: WheelEvent) => {
    e.preventDefault();
    const lines = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    const factor = Math.exp(-e.deltaY * lines * 0.0015);
    editor.setView(zoomAround(editor.render, editor.view, factor, toRender(client(e))));
  };

  const key = (e: KeyboardEvent) => {
    if (e.key === ' ') spaceHeld = e.type === 'keydown';
  };
  const blur = () => {
    spaceHeld = false;
  };

  svg.addEventListener('pointerdown', down);
  svg.addEventListener('pointermove', move);
  svg.addEventListener('pointerup', up);
  svg.addEventListener('pointercancel', cancel);
  svg.addEventListener('wheel', wheel, { passive: false });
  svg.addEventListener('keydown', key);
  svg.addEventListener('keyup', key);
  svg.addEventListener('blur', blur);
  return () => {
    svg.removeEventListener('pointerdown', down);
    svg.removeEventListener('pointermove', move);
    svg.removeEventListener('pointerup', up);
    svg.removeEventListener('pointercancel', cancel);
    svg.removeEventListener('wheel', wheel);
    svg.removeEventListener('keydown', key);
    svg.removeEventListener('keyup', key);
    svg.removeEventListener('blur', blur);
  };
}
