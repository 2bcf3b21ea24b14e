import svgpath from 'svgpath';

/**
 * Shapes are SVG path data that a page inlines into `<path d="…">`. The client's text is parsed
 * (svgpath, a maintained SVG path parser) and the service writes its own: absolute commands, numbers
 * rounded to 3 decimals, nothing else. So a quote, a tag or a stray character never reaches a page:
 * anything that does not parse is refused, and what is stored is only path data.
 */

export interface NormalisedPath {
  /** The stored path data. */
  path: string;
  /** Largest x and y any point of the path reaches (curve control points included). */
  maxX: number;
  maxY: number;
}

/** Why the path cannot be stored, or the path as stored. */
export type PathResult = { ok: true; value: NormalisedPath } | { ok: false; problem: string };

/** Numbers further from 0 than this are refused (no overlay is near it; arc radii alike). */
const MAX_MAGNITUDE = 1e9;
/** What the normalised text may contain: commands, digits, signs, dots, exponents, spaces. */
const PATH_DATA = /^[MLHVCSQTAZ0-9 .e+-]*$/;
const EPSILON = 1e-6;

type Segment = [string, ...number[]];
interface ParsedPath {
  err: string;
  segments: Segment[];
  abs(): ParsedPath;
  unshort(): ParsedPath;
  unarc(): ParsedPath;
  round(precision: number): ParsedPath;
  scale(sx: number, sy: number): ParsedPath;
  toString(): string;
}
const parse = svgpath as unknown as (path: string) => ParsedPath;

/** Parses and normalises `text`; every point must lie in 0..width × 0..height. */
export function normalisePath(text: string, width: number, height: number): PathResult {
  const parsed = parse(text);
  if (parsed.err) return { ok: false, problem: `is not SVG path data (${parsed.err.replace(/^SvgPath: /, '')})` };
  if (parsed.segments.length === 0) return { ok: false, problem: 'is not SVG path data (no commands)' };
  for (const [command, ...numbers] of parsed.segments) {
    // svgpath also reads `R` (a Catmull-Rom extension), which is not SVG.
    if (command === 'R' || command === 'r') return { ok: false, problem: `is not SVG path data (${command} is not an SVG path command)` };
    for (const n of numbers) {
      if (!Number.isFinite(n) || Math.abs(n) > MAX_MAGNITUDE) return { ok: false, problem: `has a number out of range (${n})` };
    }
  }
  const normal = parsed.abs().round(3);
  const path = normal.toString();
  if (!PATH_DATA.test(path)) return { ok: false, problem: 'is not SVG path data' };

  // Curves lie inside the hull of their control points, and arcs become curves: checking every
  // control point of that form bounds the whole outline.
  let maxX = 0;
  let maxY = 0;
  let x = 0;
  let y = 0;
  let start: [number, number] = [0, 0];
  // Arcs turned into curves carry float noise (1080.00000003 for an arc ending at 1080).
  const outside = (px: number, py: number) => px < -EPSILON || py < -EPSILON || px > width + EPSILON || py > height + EPSILON;
  // `normal` holds the rounded numbers `path` was written from (toString only reads them): no second parse.
  for (const [command, ...n] of normal.unshort().unarc().segments) {
    const points: Array<[number, number]> = [];
    if (command === 'H') points.push([n[0]!, y]);
    else if (command === 'V') points.push([x, n[0]!]);
    else for (let i = 0; i + 1 < n.length; i += 2) points.push([n[i]!, n[i + 1]!]);
    for (const [px, py] of points) {
      if (!Number.isFinite(px) || !Number.isFinite(py)) return { ok: false, problem: 'has a number out of range' };
      if (outside(px, py)) {
        return { ok: false, problem: `has a point (${round(px)}, ${round(py)}) outside the overlay 0..${width} × 0..${height}` };
      }
      maxX = Math.max(maxX, px);
      maxY = Math.max(maxY, py);
    }
    const last = points[points.length - 1];
    if (command === 'Z') [x, y] = start;
    else if (last) [x, y] = last;
    if (command === 'M' && last) start = last;
  }
  return { ok: true, value: { path, maxX: Math.min(round(maxX), width), maxY: Math.min(round(maxY), height) } };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Stored path data scaled by sx × sy about the origin (arcs keep their shape: svgpath rewrites their
 * radii and rotation), normalised again; its extent is not checked against any overlay.
 */
export function scalePath(path: string, sx: number, sy: number): PathResult {
  const parsed = parse(path);
  if (parsed.err) return { ok: false, problem: `is not SVG path data (${parsed.err.replace(/^SvgPath: /, '')})` };
  return normalisePath(parsed.scale(sx, sy).toString(), Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
}
