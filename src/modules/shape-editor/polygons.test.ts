import { describe, expect, it } from 'vitest';
import { clampPoint, nearestVertex, pathToRings, pointInRings, ringsToPath, shapeAt, snapPoint, translateRings } from './polygons.js';

const square = (x: number, y: number, size: number) => [
  { x, y },
  { x: x + size, y },
  { x: x + size, y: y + size },
  { x, y: y + size },
];

describe('polygons and SVG path data', () => {
  it('rings become absolute path data rounded to 1/100 px, and back', () => {
    const d = ringsToPath([
      square(10, 20, 100),
      [
        { x: 1.23456, y: 2 },
        { x: 5, y: 2 },
        { x: 5, y: -0.001 },
      ],
    ]);
    expect(d).toBe('M10 20L110 20L110 120L10 120ZM1.23 2L5 2L5 0Z');
    expect(pathToRings(d)).toEqual({
      rings: [
        square(10, 20, 100),
        [
          { x: 1.23, y: 2 },
          { x: 5, y: 2 },
          { x: 5, y: 0 },
        ],
      ],
      curved: false,
    });
    expect(
      ringsToPath([
        [
          { x: 0, y: 0 },
          { x: 1, y: 1 },
        ],
      ]),
    ).toBe('');
  });

  it('reads relative, H/V and a closing point equal to the first; curves and arcs are flattened and flagged', () => {
    expect(pathToRings('m10 10 h100 v50 h-100 z').rings).toEqual([square(10, 10, 100).map((p, i) => (i >= 2 ? { ...p, y: 60 } : p))]);
    expect(pathToRings('M0 0L10 0L10 10L0 0Z').rings).toEqual([
      [
        { x: 0, y: 0 },
        { x: 10, y: 0 },
        { x: 10, y: 10 },
      ],
    ]);
    const curved = pathToRings('M0 0C0 100 100 100 100 0Z');
    expect(curved.curved).toBe(true);
    expect(curved.rings[0]).toHaveLength(9);
    expect(curved.rings[0]![8]).toEqual({ x: 100, y: 0 });
    expect(curved.rings[0]![4]).toEqual({ x: 50, y: 75 });
    expect(pathToRings('M0 0A50 50 0 0 1 100 0Z').curved).toBe(true);
  });
});

describe('hit testing and snapping', () => {
  const shapes = [[square(0, 0, 100)], [square(100, 0, 100)], [square(20, 20, 10), square(22, 22, 6)]];

  it('pointInRings is even-odd: a ring inside another is a hole', () => {
    expect(pointInRings({ x: 50, y: 50 }, shapes[0]!)).toBe(true);
    expect(pointInRings({ x: 150, y: 50 }, shapes[0]!)).toBe(false);
    expect(pointInRings({ x: 21, y: 21 }, shapes[2]!)).toBe(true);
    expect(pointInRings({ x: 25, y: 25 }, shapes[2]!)).toBe(false);
  });

  it('shapeAt finds the topmost shape; -1 on empty space', () => {
    expect(shapeAt({ x: 21, y: 21 }, shapes)).toBe(2);
    expect(shapeAt({ x: 25, y: 25 }, shapes)).toBe(0);
    expect(shapeAt({ x: 150, y: 50 }, shapes)).toBe(1);
    expect(shapeAt({ x: 500, y: 500 }, shapes)).toBe(-1);
  });

  it('nearestVertex within a radius; the later shape wins a shared point; one shape can be skipped', () => {
    expect(nearestVertex({ x: 98, y: 3 }, shapes, 5)).toEqual({ shape: 1, ring: 0, point: 0 });
    expect(nearestVertex({ x: 98, y: 3 }, shapes, 5, 1)).toEqual({ shape: 0, ring: 0, point: 1 });
    expect(nearestVertex({ x: 50, y: 50 }, shapes, 5)).toBeUndefined();
  });

  it('snapPoint puts a new point on another shape’s point nearby, unless free (the modifier key)', () => {
    expect(snapPoint({ x: 103, y: 96 }, shapes, 8, undefined, false)).toEqual({ x: 100, y: 100 });
    expect(snapPoint({ x: 103, y: 96 }, shapes, 8, undefined, true)).toEqual({ x: 103, y: 96 });
    expect(snapPoint({ x: 103, y: 96 }, shapes, 2, undefined, false)).toEqual({ x: 103, y: 96 });
  });

  it('moving a shape keeps its form and stops at the render’s edges; points are clamped', () => {
    expect(translateRings([square(10, 10, 10)], -50, 5, 100, 100)).toEqual([square(0, 15, 10)]);
    expect(translateRings([square(10, 10, 10)], 500, 500, 100, 100)).toEqual([square(90, 90, 10)]);
    expect(clampPoint({ x: -1, y: 1000.004 }, 100, 1000)).toEqual({ x: 0, y: 1000 });
  });
});
