import { SaxesParser, type SaxesTagPlain } from 'saxes';
import svgpath from 'svgpath';
import type { Size } from './viewport.js';

/**
 * Reads the shapes of an SVG file traced over a render in Inkscape, Figma or Illustrator: every
 * `path`, `polygon` and `rect`, and every `g` as one shape made of what it holds, named by its
 * `data-name`, `inkscape:label` or `id`; transforms applied (nested groups included), then scaled from
 * the file's viewBox (or width × height) to the render's pixels. Used by the editor in the browser
 * and by the server for the no-script import, so it touches no DOM: saxes is a strict, non-validating
 * XML parser that never reads a DTD, so no entity is ever defined or expanded (no "billion laughs",
 * no external entity) and nothing in the file is executed or fetched.
 */

export interface TracedShape {
  /** The name the file gives the element (data-name, inkscape:label, then id). */
  name: string;
  /** Absolute SVG path data in render pixels. */
  path: string;
}

export interface ParsedSvg {
  shapes: TracedShape[];
  /** Shapes without a name of their own, or with a name an editor makes up (`path123`, `rect4`). */
  unnamed: number;
  /** What the reader noticed and the report should tell (a different aspect ratio, a skipped element). */
  notes: string[];
}

import { MAX_SVG_LENGTH } from './limits.js';

export { MAX_SVG_LENGTH };
const MAX_ELEMENTS = 100_000;
const MAX_DEPTH = 200;

/** Elements whose content is never drawn where it stands (or is not geometry at all). */
const SKIPPED = new Set(['defs', 'clipPath', 'mask', 'symbol', 'pattern', 'marker', 'metadata', 'style', 'script', 'title', 'desc', 'foreignObject', 'text']);
const SHAPES = new Set(['path', 'polygon', 'rect']);
/** Names editors give elements by themselves: these say nothing about a home. */
const GENERATED_NAME = /^(path|rect|rectangle|polygon|polyline|g|layer|group|svg|defs|shape|vector|frame|ellipse)[-_ ]?\d*$/i;
/** CSS pixels per unit of an absolute length (width="210mm"). */
const UNITS: Record<string, number> = { '': 1, px: 1, pt: 96 / 72, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 };

const localName = (tag: string) => tag.slice(tag.indexOf(':') + 1);

function length(value: string | undefined): number | undefined {
  const match = /^\s*([0-9]*\.?[0-9]+(?:e[-+]?\d+)?)\s*(px|pt|pc|in|cm|mm)?\s*$/i.exec(value ?? '');
  if (!match) return undefined;
  const n = Number(match[1]) * UNITS[(match[2] ?? '').toLowerCase()]!;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** The transform from the file's user space to render pixels, from the root's viewBox or size. */
function rootTransform(attributes: Record<string, string>, render: Size, notes: string[]): string {
  const box = (attributes.viewBox ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  let minX = 0;
  let minY = 0;
  let width: number | undefined;
  let height: number | undefined;
  if (box.length === 4 && box.every(Number.isFinite) && box[2]! > 0 && box[3]! > 0) [minX, minY, width, height] = box as [number, number, number, number];
  else {
    width = length(attributes.width);
    height = length(attributes.height);
  }
  if (width === undefined || height === undefined) {
    notes.push('The file has no viewBox and no width and height: its coordinates are read as the render’s pixels.');
    return '';
  }
  const ratio = width / height / (render.width / render.height);
  if (Math.abs(ratio - 1) > 0.01) {
    notes.push(
      `The file is ${round(width)} × ${round(height)} and the render ${render.width} × ${render.height}: different aspect ratios, so shapes are stretched to fit.`,
    );
  }
  return `scale(${render.width / width} ${render.height / height}) translate(${-minX} ${-minY})`;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** An element's geometry as path data in its own user space, or undefined when it has none. */
function geometry(tag: string, a: Record<string, string>): string | undefined {
  if (tag === 'path') return a.d?.trim() || undefined;
  if (tag === 'polygon') {
    const n = (a.points ?? '')
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (n.length < 6 || n.some((v) => !Number.isFinite(v))) return undefined;
    const pairs: string[] = [];
    for (let i = 0; i + 1 < n.length; i += 2) pairs.push(`${n[i]} ${n[i + 1]}`);
    return `M${pairs.join('L')}Z`;
  }
  const x = Number(a.x ?? 0);
  const y = Number(a.y ?? 0);
  const w = length(a.width);
  const h = length(a.height);
  if (!Number.isFinite(x) || !Number.isFinite(y) || w === undefined || h === undefined) return undefined;
  return `M${x} ${y}H${x + w}V${y + h}H${x}Z`;
}

/** The element's name: data-name (Illustrator, Figma), then inkscape:label, then id; generated ids are no name. */
function nameOf(a: Record<string, string>): string | undefined {
  for (const key of ['data-name', 'inkscape:label', 'id']) {
    const value = a[key]?.trim();
    if (value && !GENERATED_NAME.test(value)) return value;
  }
  return undefined;
}

interface Frame {
  tag: string;
  /** This element's transform attribute (applied before its ancestors'). */
  transform: string;
  skip: boolean;
  /** A named group collecting its descendants' geometry into one shape. */
  group?: { name: string; paths: string[] };
}

/**
 * The named shapes of an SVG document in render pixels. Throws an Error whose message says what is
 * wrong when the text is not well-formed XML or not an SVG document.
 */
export function parseSvgShapes(text: string, render: Size): ParsedSvg {
  if (text.length > MAX_SVG_LENGTH) throw new Error(`The file is larger than ${MAX_SVG_LENGTH / 1024 / 1024} MB`);
  const shapes: TracedShape[] = [];
  const notes: string[] = [];
  let unnamed = 0;
  let elements = 0;
  let root = '';
  const stack: Frame[] = [];
  const parser = new SaxesParser({ xmlns: false, position: true });
  const toRender = (d: string): string | undefined => {
    let path = svgpath(d);
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i]!.transform) path = path.transform(stack[i]!.transform);
    if (root) path = path.transform(root);
    const out = path.abs().round(2).toString();
    return /^[MLHVCSQTAZ0-9 .e+-]+$/i.test(out) ? out : undefined;
  };

  parser.on('opentag', (node: SaxesTagPlain) => {
    if (++elements > MAX_ELEMENTS) throw new Error(`The file has more than ${MAX_ELEMENTS} elements`);
    if (stack.length >= MAX_DEPTH) throw new Error(`The file nests elements more than ${MAX_DEPTH} deep`);
    const tag = localName(node.name);
    const a = node.attributes as Record<string, string>;
    const parent = stack[stack.length - 1];
    if (!parent) {
      if (tag !== 'svg') throw new Error(`The file is not an SVG document (its root element is <${node.name}>)`);
      root = rootTransform(a, render, notes);
      stack.push({ tag, transform: '', skip: false });
      return;
    }
    const frame: Frame = { tag, transform: a.transform ?? '', skip: parent.skip || SKIPPED.has(tag) };
    stack.push(frame);
    if (frame.skip) return;
    const group = stack.find((f) => f.group)?.group;
    const name = nameOf(a);
    if (tag === 'g' && name && !group) frame.group = { name, paths: [] };
    if (!SHAPES.has(tag)) return;
    const d = geometry(tag, a);
    const path = d === undefined ? undefined : toRender(d);
    if (path === undefined) {
      notes.push(`<${tag}${name ? ` "${name}"` : ''}> has no geometry the editor can read; it was skipped.`);
      return;
    }
    if (group) group.paths.push(path);
    else if (name) shapes.push({ name, path });
    else unnamed++;
  });
  parser.on('closetag', () => {
    const frame = stack.pop();
    if (!frame?.group) return;
    if (frame.group.paths.length > 0) shapes.push({ name: frame.group.name, path: frame.group.paths.join('') });
    else notes.push(`The group "${frame.group.name}" holds no path, polygon or rect; it was skipped.`);
  });
  try {
    parser.write(text).close();
  } catch (error) {
    const message = (error as Error).message;
    throw new Error(/^The file/.test(message) ? message : `The file is not well-formed SVG: ${message}`);
  }
  if (elements === 0) throw new Error('The file is not an SVG document (it has no elements)');
  return { shapes, unnamed, notes };
}
