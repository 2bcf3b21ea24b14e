import svgpath from 'svgpath';
import type { Point } from './viewport.js';

/**
 * Shapes as the editor holds them: polygons (one or more rings of points in render pixels), written
 * to and read from SVG path data, with hit testing and snapping. Pure functions.
 */

export type Ring = Point[];

/** Decimals a point keeps (render pixels): 1/100 px is far below what a pointer can aim at. */
const DECIMALS = 2;
const round = (n: number) => {
  const r = Math.round(n * 10 ** DECIMALS) / 10 ** DECIMALS;
  return Object.is(r, -0) ? 0 : r;
};
const num = (n: number) => String(round(n));

/** `M x y L x y … Z` for each ring of three points or more (absolute, rounded as the editor stores points). */
export function ringsToPath(rings: readonly Ring[]): string {
  return rings
    .filter((ring) => ring.length >= 3)
    .map((ring) => `M${ring.map((p) => `${num(p.x)} ${num(p.y)}`).join('L')}Z`)
    .join('');
}

/** Points a curve is flattened to when a path with curves is edited as a polygon. */
const CURVE_STEPS = 8;

/**
 * The rings of a path: each subpath's points; curves and arcs are flattened to CURVE_STEPS points
 * each (an edited curved shape becomes a polygon; one left alone keeps its path). `curved` says
 * whether anything was flattened.
 */
export function pathToRings(d: string): { rings: Ring[]; curved: boolean } {
  const rings: Ring[] = [];
  let ring: Ring = [];
  let curved = false;
  let last: Point = { x: 0, y: 0 };
  const close = () => {
    // A closing point equal to the first is the same corner, not a new one.
    const first = ring[0];
    const end = ring[ring.length - 1];
    if (ring.length > 1 && first && end && first.x === end.x && first.y === end.y) ring.pop();
    if (ring.length > 0) rings.push(ring);
    ring = [];
  };
  const add = (p: Point) => {
    ring.push({ x: round(p.x), y: round(p.y) });
    last = p;
  };
  svgpath(d)
    .abs()
    .unarc()
    .unshort()
    .iterate((segment) => {
      const [command, ...n] = segment as unknown as [string, ...number[]];
      if (command === 'M') {
        close();
        add({ x: n[0]!, y: n[1]! });
      } else if (command === 'L') add({ x: n[0]!, y: n[1]! });
      else if (command === 'H') add({ x: n[0]!, y: last.y });
      else if (command === 'V') add({ x: last.x, y: n[0]! });
      else if (command === 'C' || command === 'Q') {
        curved = true;
        const from = last;
        const controls: Point[] = [];
        for (let i = 0; i + 1 < n.length; i += 2) controls.push({ x: n[i]!, y: n[i + 1]! });
        for (let step = 1; step <= CURVE_STEPS; step++) add(bezierAt([from, ...controls], step / CURVE_STEPS));
      } else if (command === 'Z' || command === 'z') {
        const start = ring[0];
        close();
        if (start) last = start;
      }
    });
  close();
  return { rings, curved };
}

/** A point of a Bézier curve of any degree (de Casteljau). */
function bezierAt(points: Point[], t: number): Point {
  let current = points;
  while (current.length > 1) {
    const next: Point[] = [];
    for (let i = 0; i + 1 < current.length; i++) {
      const a = current[i]!;
      const b = current[i + 1]!;
      next.push({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
    }
    current = next;
  }
  return current[0]!;
}

/** Whether `p` is inside the rings (even-odd, as SVG's `fill-rule: evenodd`: a ring inside another is a hole). */
export function pointInRings(p: Point, rings: readonly Ring[]): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[i]!;
      const b = ring[j]!;
      if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
    }
  }
  return inside;
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** Where a point of a shape is: the shape's index, the ring's, the point's. */
export interface VertexRef {
  shape: number;
  ring: number;
  point: number;
}

/**
 * The point of any shape nearest to `p` within `radius` (render pixels), or undefined. Shapes drawn
 * later are on top, so on a tie the later one wins. `skip` leaves one shape out (the one being drawn).
 */
export function nearestVertex(p: Point, shapes: ReadonlyArray<readonly Ring[]>, radius: number, skip?: number): VertexRef | undefined {
  let best: VertexRef | undefined;
  let bestDistance = radius;
  shapes.forEach((rings, shape) => {
    if (shape === skip) return;
    rings.forEach((ring, r) => {
      ring.forEach((q, point) => {
        const d = distance(p, q);
        if (d <= bestDistance) {
          bestDistance = d;
          best = { shape, ring: r, point };
        }
      });
    });
  });
  return best;
}

/** The topmost shape containing `p` (the last drawn), or -1. */
export function shapeAt(p: Point, shapes: ReadonlyArray<readonly Ring[]>): number {
  for (let i = shapes.length - 1; i >= 0; i--) if (pointInRings(p, shapes[i]!)) return i;
  return -1;
}

/**
 * Where a new point goes: onto the nearest point of another shape within `radius` render pixels (so
 * neighbouring homes share their walls exactly), unless `free` (the user holds the modifier key) or
 * nothing is that close. `skip` is the shape being drawn or moved.
 */
export function snapPoint(p: Point, shapes: ReadonlyArray<readonly Ring[]>, radius: number, skip: number | undefined, free: boolean): Point {
  if (free) return p;
  const hit = nearestVertex(p, shapes, radius, skip);
  if (!hit) return p;
  const q = shapes[hit.shape]![hit.ring]![hit.point]!;
  return { x: q.x, y: q.y };
}

/** The rings moved by (dx, dy), kept inside 0..width × 0..height as a whole (the shape keeps its form). */
export function translateRings(rings: readonly Ring[], dx: number, dy: number, width: number, height: number): Ring[] {
  const all = rings.flat();
  if (all.length === 0) return rings.map((r) => [...r]);
  const minX = Math.min(...all.map((p) => p.x));
  const maxX = Math.max(...all.map((p) => p.x));
  const minY = Math.min(...all.map((p) => p.y));
  const maxY = Math.max(...all.map((p) => p.y));
  const cx = Math.min(Math.max(dx, -minX), width - maxX);
  const cy = Math.min(Math.max(dy, -minY), height - maxY);
  return rings.map((ring) => ring.map((p) => ({ x: round(p.x + cx), y: round(p.y + cy) })));
}

/** A point kept inside the render and rounded as the editor stores points. */
export function clampPoint(p: Point, width: number, height: number): Point {
  return { x: round(Math.min(Math.max(p.x, 0), width)), y: round(Math.min(Math.max(p.y, 0), height)) };
}
