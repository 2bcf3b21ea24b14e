import type { EditorDocument, EditorShape, StoredShape } from '../document.js';
import { type Ring, ringsToPath } from '../polygons.js';
import type { Reference } from '../svg-match.js';
import type { Box, Point, Size } from '../viewport.js';
import { svgEl } from './dom.js';

/** What is selected: a shape, and maybe one of its points. */
export interface Selection {
  shape: number;
  ring: number;
  point: number | null;
}

/** Everything the drawing area shows, beyond the document. */
export interface CanvasState {
  doc: EditorDocument;
  view: Box;
  selection: Selection | null;
  /** The keyboard's crosshair while drawing by keyboard, in render pixels. */
  cursor: Point | null;
  /** Their shapes while a conflict is shown (dashed). */
  theirs: readonly StoredShape[] | null;
  /** Render pixels per screen pixel: handles keep their size on screen at any zoom. */
  unit: number;
}

const HANDLE_RADIUS = 6;

/**
 * The drawing area: an `<svg>` whose viewBox is the view (render pixels), the render as an `<image>`,
 * one `<path>` per shape (named for assistive technology), and an overlay with the selection's
 * handles, the shape being drawn and the keyboard cursor. Shapes whose value did not change keep
 * their element untouched, so a drag among 500 shapes rewrites one path.
 */
export class Canvas {
  readonly svg: SVGSVGElement;
  private readonly shapesLayer: SVGGElement;
  private readonly theirsLayer: SVGGElement;
  private readonly overlay: SVGGElement;
  private drawn = new Map<string, { shape: EditorShape; className: string; label: string; node: SVGPathElement }>();
  private viewBox = '';
  private doc: EditorDocument | null = null;
  private selection: Selection | null = null;

  constructor(
    render: Size,
    src: string,
    private readonly referenceOf: (shape: EditorShape) => Reference | undefined,
  ) {
    this.svg = svgEl('svg', {
      class: 'se-canvas',
      role: 'application',
      'aria-label': 'Shape editor',
      tabindex: '0',
      preserveAspectRatio: 'xMidYMid meet',
      viewBox: `0 0 ${render.width} ${render.height}`,
    });
    const image = svgEl('image', { href: src, x: '0', y: '0', width: String(render.width), height: String(render.height) });
    image.setAttribute('preserveAspectRatio', 'none');
    this.shapesLayer = svgEl('g', { class: 'se-shapes' });
    this.theirsLayer = svgEl('g', { class: 'se-theirs', 'aria-hidden': 'true' });
    this.overlay = svgEl('g', { class: 'se-overlay', 'aria-hidden': 'true' });
    this.svg.append(image, this.shapesLayer, this.theirsLayer, this.overlay);
  }

  update(state: CanvasState): void {
    const { view, doc, selection } = state;
    // Set only when it changed: writing the same viewBox still makes Chromium lay out and paint every shape
    // again (a drag among 500 shapes would then redraw all of them on each pointer move).
    const viewBox = `${view.x} ${view.y} ${view.width} ${view.height}`;
    if (viewBox !== this.viewBox) {
      this.viewBox = viewBox;
      this.svg.setAttribute('viewBox', viewBox);
    }
    if (doc !== this.doc || selection !== this.selection) {
      this.doc = doc;
      this.selection = selection;
      this.drawShapes(doc, selection);
    }
    this.drawTheirs(state.theirs);
    this.drawOverlay(state);
  }

  private drawShapes(doc: EditorDocument, selection: Selection | null): void {
    const seen = new Set<string>();
    let previous: SVGPathElement | null = null;
    doc.shapes.forEach((shape, i) => {
      seen.add(shape.key);
      const reference = this.referenceOf(shape);
      const status = reference?.status ? ` se-status-${reference.status.toLowerCase()}` : '';
      const className = `se-shape${reference ? status : ' se-unassigned'}${selection?.shape === i ? ' se-selected' : ''}`;
      const label = `Shape ${i + 1}: ${reference ? reference.name : 'no apartment or building yet'}`;
      let entry = this.drawn.get(shape.key);
      if (!entry) {
        const node = svgEl('path', { 'data-key': shape.key, role: 'img' });
        entry = { shape, className: '', label: '', node };
        this.drawn.set(shape.key, entry);
        entry.node.setAttribute('d', shape.original ?? ringsToPath(shape.rings));
      } else if (entry.shape !== shape) entry.node.setAttribute('d', shape.original ?? ringsToPath(shape.rings));
      entry.shape = shape;
      if (entry.className !== className) {
        entry.className = className;
        entry.node.setAttribute('class', className);
      }
      if (entry.label !== label) {
        entry.label = label;
        entry.node.setAttribute('aria-label', label);
      }
      // Document order is drawing order (the last shape is on top, as hit testing assumes).
      const expected: ChildNode | null = previous ? previous.nextSibling : this.shapesLayer.firstChild;
      if (expected !== entry.node) this.shapesLayer.insertBefore(entry.node, expected);
      previous = entry.node;
    });
    for (const [key, entry] of this.drawn) {
      if (seen.has(key)) continue;
      entry.node.remove();
      this.drawn.delete(key);
    }
  }

  private drawTheirs(theirs: readonly StoredShape[] | null): void {
    if (!theirs) {
      this.theirsLayer.replaceChildren();
      return;
    }
    if (this.theirsLayer.childElementCount === theirs.length) return;
    this.theirsLayer.replaceChildren(...theirs.map((s) => svgEl('path', { d: s.shape, class: 'se-their-shape' })));
  }

  private drawOverlay(state: CanvasState): void {
    const { doc, selection, unit, cursor } = state;
    const r = String(HANDLE_RADIUS * unit);
    const nodes: SVGElement[] = [];
    const shape = selection ? doc.shapes[selection.shape] : undefined;
    if (shape && selection) {
      shape.rings.forEach((ring, ri) =>
        ring.forEach((p, pi) => {
          const current = selection.ring === ri && selection.point === pi;
          nodes.push(svgEl('circle', { cx: String(p.x), cy: String(p.y), r, class: current ? 'se-handle se-handle-current' : 'se-handle' }));
        }),
      );
    }
    if (doc.draft && doc.draft.length > 0) {
      const points: Ring = [...doc.draft];
      nodes.push(svgEl('polyline', { points: points.map((p) => `${p.x},${p.y}`).join(' '), class: 'se-draft' }));
      points.forEach((p, i) =>
        nodes.push(svgEl('circle', { cx: String(p.x), cy: String(p.y), r, class: i === 0 ? 'se-handle se-handle-first' : 'se-handle' })),
      );
    }
    if (cursor) {
      const size = 12 * unit;
      nodes.push(
        svgEl('path', {
          d: `M${cursor.x - size} ${cursor.y}H${cursor.x + size}M${cursor.x} ${cursor.y - size}V${cursor.y + size}`,
          class: 'se-cursor',
        }),
      );
    }
    this.overlay.replaceChildren(...nodes);
  }
}
