import { describe, expect, it } from 'vitest';
import {
  MAX_ZOOM,
  clampViewBox,
  clientToRender,
  panBy,
  parseAspectRatio,
  renderPixelsPerScreenPixel,
  renderToClient,
  viewBoxAt,
  zoomAround,
  zoomOf,
} from './viewport.js';

const render = { width: 1600, height: 1200 };
const whole = { x: 0, y: 0, ...render };
const meet = parseAspectRatio('xMidYMid meet');

describe('pointer position to render pixels', () => {
  it('an element of the render’s aspect: corners map to corners at any size and offset', () => {
    const element = { x: 40, y: 100, width: 800, height: 600 };
    expect(clientToRender({ x: 40, y: 100 }, element, whole, meet)).toEqual({ x: 0, y: 0 });
    expect(clientToRender({ x: 840, y: 700 }, element, whole, meet)).toEqual({ x: 1600, y: 1200 });
    expect(clientToRender({ x: 440, y: 400 }, element, whole, meet)).toEqual({ x: 800, y: 600 });
    expect(renderPixelsPerScreenPixel(element, whole, meet)).toBe(2);
  });

  it('a wider element letterboxes the render in the middle (xMidYMid meet), and the margins map outside it', () => {
    const element = { x: 0, y: 0, width: 1000, height: 600 };
    // 600 px high shows 1200 render px: scale 0.5, render 800 px wide centred: 100 px each side.
    expect(clientToRender({ x: 100, y: 0 }, element, whole, meet)).toEqual({ x: 0, y: 0 });
    expect(clientToRender({ x: 900, y: 600 }, element, whole, meet)).toEqual({ x: 1600, y: 1200 });
    expect(clientToRender({ x: 50, y: 300 }, element, whole, meet).x).toBe(-100);
  });

  it('other alignments, slice and none follow SVG’s preserveAspectRatio', () => {
    const element = { x: 0, y: 0, width: 1000, height: 600 };
    expect(clientToRender({ x: 0, y: 0 }, element, whole, parseAspectRatio('xMinYMin meet'))).toEqual({ x: 0, y: 0 });
    expect(clientToRender({ x: 800, y: 600 }, element, whole, parseAspectRatio('xMinYMin'))).toEqual({ x: 1600, y: 1200 });
    expect(clientToRender({ x: 1000, y: 600 }, element, whole, parseAspectRatio('xMaxYMax meet'))).toEqual({ x: 1600, y: 1200 });
    // slice: the render fills the width (scale 0.625), cut top and bottom equally.
    const slice = parseAspectRatio('xMidYMid slice');
    expect(clientToRender({ x: 1000, y: 300 }, element, whole, slice)).toEqual({ x: 1600, y: 600 });
    expect(clientToRender({ x: 0, y: 0 }, element, whole, slice).y).toBeCloseTo(120, 9);
    // none: stretched on each axis.
    expect(clientToRender({ x: 500, y: 150 }, element, whole, parseAspectRatio('none'))).toEqual({ x: 800, y: 300 });
    expect(parseAspectRatio('bogus')).toEqual({ align: 'xMidYMid', meetOrSlice: 'meet' });
  });

  it('zoomed and panned: the viewBox decides, and renderToClient is the inverse', () => {
    const element = { x: 12.5, y: 80, width: 1024, height: 768 };
    for (const zoom of [1, 2, 3.7, 16]) {
      const view = viewBoxAt(render, zoom, { x: 1000, y: 300 });
      for (const p of [
        { x: view.x, y: view.y },
        { x: view.x + view.width / 3, y: view.y + view.height / 5 },
      ]) {
        const c = renderToClient(p, element, view, meet);
        const back = clientToRender(c, element, view, meet);
        expect(back.x).toBeCloseTo(p.x, 9);
        expect(back.y).toBeCloseTo(p.y, 9);
      }
      expect(renderPixelsPerScreenPixel(element, view, meet)).toBeCloseTo(1600 / 1024 / zoom, 9);
    }
  });
});

describe('zoom and pan', () => {
  it('zooming keeps the anchor where it was on screen, within 1x..32x, inside the render', () => {
    const element = { x: 0, y: 0, width: 800, height: 600 };
    const anchor = { x: 400, y: 300 };
    const before = renderToClient(anchor, element, whole, meet);
    const zoomed = zoomAround(render, whole, 2, anchor);
    expect(zoomOf(render, zoomed)).toBe(2);
    const after = renderToClient(anchor, element, zoomed, meet);
    expect(after.x).toBeCloseTo(before.x, 9);
    expect(after.y).toBeCloseTo(before.y, 9);
    expect(zoomOf(render, zoomAround(render, zoomed, 1000, anchor))).toBe(MAX_ZOOM);
    expect(zoomAround(render, zoomed, 0.001, anchor)).toEqual(whole);
  });

  it('panning moves the view against the pointer and stops at the render’s edges', () => {
    const view = viewBoxAt(render, 2, { x: 800, y: 600 });
    expect(view).toEqual({ x: 400, y: 300, width: 800, height: 600 });
    expect(panBy(render, view, 100, -50, 2)).toEqual({ x: 200, y: 400, width: 800, height: 600 });
    expect(panBy(render, view, 10_000, 10_000, 2)).toEqual({ x: 0, y: 0, width: 800, height: 600 });
    expect(clampViewBox(render, { x: 5000, y: -3, width: 800, height: 600 })).toEqual({ x: 800, y: 0, width: 800, height: 600 });
  });
});
