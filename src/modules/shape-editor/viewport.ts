/**
 * The shape editor's view: an `<svg>` whose viewBox is the part of the render on screen (zoom and pan
 * are the viewBox, nothing else), drawn by the browser with `preserveAspectRatio`. These functions map
 * a pointer's client position to render pixels exactly as the browser maps the other way, at any zoom,
 * pan and element size. Pure: the island passes the element's box, tests pass numbers.
 */

export interface Point {
  x: number;
  y: number;
}

/** A rectangle in some space: the element's client box, or a viewBox in render pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

/** The SVG `preserveAspectRatio` value: `none`, or an alignment with `meet` (default) or `slice`. */
export interface AspectRatio {
  align: 'none' | `x${'Min' | 'Mid' | 'Max'}Y${'Min' | 'Mid' | 'Max'}`;
  meetOrSlice: 'meet' | 'slice';
}

const ALIGN = /^(none|x(?:Min|Mid|Max)Y(?:Min|Mid|Max))(?:\s+(meet|slice))?$/;

/** Reads a `preserveAspectRatio` attribute; anything it cannot read is the SVG default, `xMidYMid meet`. */
export function parseAspectRatio(value: string | null | undefined): AspectRatio {
  const match = ALIGN.exec((value ?? '').trim());
  if (!match) return { align: 'xMidYMid', meetOrSlice: 'meet' };
  return { align: match[1] as AspectRatio['align'], meetOrSlice: (match[2] as AspectRatio['meetOrSlice'] | undefined) ?? 'meet' };
}

/** The viewBox-to-client transform the browser uses: client = offset + (viewBox point - viewBox origin) * scale. */
export interface ViewTransform {
  scaleX: number;
  scaleY: number;
  offsetX: number;
  offsetY: number;
}

/** SVG 1.1 §7.8 (the viewBox and preserveAspectRatio): how `viewBox` is laid into `element`. */
export function viewTransform(element: Box, viewBox: Box, ratio: AspectRatio): ViewTransform {
  let scaleX = element.width / viewBox.width;
  let scaleY = element.height / viewBox.height;
  if (ratio.align !== 'none') {
    const scale = ratio.meetOrSlice === 'slice' ? Math.max(scaleX, scaleY) : Math.min(scaleX, scaleY);
    scaleX = scale;
    scaleY = scale;
  }
  const spareX = element.width - viewBox.width * scaleX;
  const spareY = element.height - viewBox.height * scaleY;
  const along = (part: string, spare: number) => (part === 'Mid' ? spare / 2 : part === 'Max' ? spare : 0);
  const xPart = ratio.align === 'none' ? 'Min' : ratio.align.slice(1, 4);
  const yPart = ratio.align === 'none' ? 'Min' : ratio.align.slice(5, 8);
  return { scaleX, scaleY, offsetX: element.x + along(xPart, spareX), offsetY: element.y + along(yPart, spareY) };
}

/** A pointer's client position as render pixels (the viewBox is in render pixels). */
export function clientToRender(client: Point, element: Box, viewBox: Box, ratio: AspectRatio): Point {
  const t = viewTransform(element, viewBox, ratio);
  return { x: viewBox.x + (client.x - t.offsetX) / t.scaleX, y: viewBox.y + (client.y - t.offsetY) / t.scaleY };
}

/** Where a render pixel is on screen (client coordinates): the inverse of clientToRender. */
export function renderToClient(point: Point, element: Box, viewBox: Box, ratio: AspectRatio): Point {
  const t = viewTransform(element, viewBox, ratio);
  return { x: t.offsetX + (point.x - viewBox.x) * t.scaleX, y: t.offsetY + (point.y - viewBox.y) * t.scaleY };
}

/** How many render pixels one screen pixel covers (snapping and hit radii are given in screen pixels). */
export function renderPixelsPerScreenPixel(element: Box, viewBox: Box, ratio: AspectRatio): number {
  const t = viewTransform(element, viewBox, ratio);
  return 1 / Math.min(t.scaleX, t.scaleY);
}

/** Closest zoom out: the whole render. Closest zoom in: a 32nd of it. */
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 32;

/** The viewBox showing `1/zoom` of the render, centred on `centre`, kept inside the render. */
export function viewBoxAt(render: Size, zoom: number, centre: Point): Box {
  const z = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
  const width = render.width / z;
  const height = render.height / z;
  return clampViewBox(render, { x: centre.x - width / 2, y: centre.y - height / 2, width, height });
}

/** A viewBox moved back inside the render (a zoomed view never shows beyond its edges). */
export function clampViewBox(render: Size, box: Box): Box {
  const x = Math.min(Math.max(box.x, 0), Math.max(0, render.width - box.width));
  const y = Math.min(Math.max(box.y, 0), Math.max(0, render.height - box.height));
  return { x, y, width: box.width, height: box.height };
}

/** The zoom a viewBox shows (1 = the whole render). */
export const zoomOf = (render: Size, box: Box) => render.width / box.width;

/**
 * Zooms by `factor` keeping `anchor` (render pixels, e.g. under the pointer or between two fingers)
 * at the same place on screen, as maps do.
 */
export function zoomAround(render: Size, box: Box, factor: number, anchor: Point): Box {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoomOf(render, box) * factor));
  const width = render.width / zoom;
  const height = render.height / zoom;
  const fx = (anchor.x - box.x) / box.width;
  const fy = (anchor.y - box.y) / box.height;
  return clampViewBox(render, { x: anchor.x - fx * width, y: anchor.y - fy * height, width, height });
}

/** Pans by a pointer movement of (dx, dy) screen pixels: the render follows the pointer. */
export function panBy(render: Size, box: Box, dx: number, dy: number, renderPerScreen: number): Box {
  return clampViewBox(render, { ...box, x: box.x - dx * renderPerScreen, y: box.y - dy * renderPerScreen });
}
