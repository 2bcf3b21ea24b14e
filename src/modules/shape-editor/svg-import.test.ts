import { describe, expect, it } from 'vitest';
import { importSvg } from './import.js';
import { pathToRings } from './polygons.js';
import { parseSvgShapes } from './svg-import.js';
import type { Reference } from './svg-match.js';

const render = { width: 1600, height: 1200 };
const svg = (body: string, root = 'viewBox="0 0 800 600"') => `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" ${root}>${body}</svg>`;
const points = (d: string) => pathToRings(d).rings;

describe('reading an SVG export', () => {
  it('path, polygon and rect by id, data-name or inkscape:label, scaled from the viewBox to the render’s pixels', () => {
    const parsed = parseSvgShapes(
      svg(`
        <path id="A-101" d="M10 10 L110 10 L110 60 L10 60 Z"/>
        <polygon data-name="A 102" id="A_102" points="200,10 300,10 300,60"/>
        <rect id="rect12" inkscape:label="Shop" x="400" y="100" width="50" height="25"/>
        <path id="path77" d="M0 0 L1 1 L2 0 Z"/>
      `),
      render,
    );
    expect(parsed.shapes.map((s) => s.name)).toEqual(['A-101', 'A 102', 'Shop']);
    expect(points(parsed.shapes[0]!.path)).toEqual([
      [
        { x: 20, y: 20 },
        { x: 220, y: 20 },
        { x: 220, y: 120 },
        { x: 20, y: 120 },
      ],
    ]);
    expect(points(parsed.shapes[1]!.path)[0]).toEqual([
      { x: 400, y: 20 },
      { x: 600, y: 20 },
      { x: 600, y: 120 },
    ]);
    expect(points(parsed.shapes[2]!.path)[0]).toEqual([
      { x: 800, y: 200 },
      { x: 900, y: 200 },
      { x: 900, y: 250 },
      { x: 800, y: 250 },
    ]);
    expect(parsed.unnamed).toBe(1);
    expect(parsed.notes).toEqual([]);
  });

  it('applies transforms: matrix, translate, scale and rotate, through nested groups, innermost first', () => {
    const parsed = parseSvgShapes(
      svg(`
        <g transform="translate(100 50)">
          <g transform="scale(2)">
            <path id="nested" transform="translate(5 0)" d="M0 0 L10 0 L10 10 Z"/>
          </g>
          <rect id="turned" transform="rotate(90)" x="0" y="0" width="10" height="20"/>
          <rect id="matrix" transform="matrix(1 0 0 1 7 8)" x="0" y="0" width="1" height="1"/>
        </g>`),
      { width: 800, height: 600 },
    );
    const [nested, turned, matrix] = parsed.shapes.map((s) => points(s.path)[0]);
    // (x + 5) * 2 + 100, y * 2 + 50
    expect(nested).toEqual([
      { x: 110, y: 50 },
      { x: 130, y: 50 },
      { x: 130, y: 70 },
    ]);
    // rotate(90): (x, y) -> (-y, x), then translate(100 50)
    expect(turned).toEqual([
      { x: 100, y: 50 },
      { x: 100, y: 60 },
      { x: 80, y: 60 },
      { x: 80, y: 50 },
    ]);
    expect(matrix![0]).toEqual({ x: 107, y: 58 });
  });

  it('a named g is one shape of all it holds; viewBox origin, width/height in units, and a stretched file are handled', () => {
    const parsed = parseSvgShapes(
      svg(
        `<g id="Building B"><rect x="10" y="10" width="10" height="10"/><path d="M30 10 H40 V20 Z"/></g><g id="g5"><rect id="A-1" x="0" y="0" width="1" height="1"/></g>`,
        'viewBox="10 10 800 600"',
      ),
      render,
    );
    expect(parsed.shapes.map((s) => s.name)).toEqual(['Building B', 'A-1']);
    expect(points(parsed.shapes[0]!.path)).toHaveLength(2);
    expect(points(parsed.shapes[0]!.path)[0]![0]).toEqual({ x: 0, y: 0 });
    const sized = parseSvgShapes(svg('<rect id="x1" x="0" y="0" width="10" height="10"/>', 'width="400px" height="300"'), render);
    expect(points(sized.shapes[0]!.path)[0]![2]).toEqual({ x: 40, y: 40 });
    const stretched = parseSvgShapes(svg('<rect id="x1" x="0" y="0" width="10" height="10"/>', 'viewBox="0 0 1000 1000"'), render);
    expect(stretched.notes[0]).toMatch(/different aspect ratios/);
    const bare = parseSvgShapes(svg('<rect id="x1" x="0" y="0" width="10" height="10"/>', ''), render);
    expect(bare.notes[0]).toMatch(/no viewBox/);
  });

  it('skips what is never drawn, and never defines or expands entities, fetches or runs anything', () => {
    const parsed = parseSvgShapes(
      svg(
        `<defs><path id="hidden" d="M0 0L1 1L1 0Z"/></defs><clipPath id="c"><rect id="clip" width="5" height="5"/></clipPath><script>alert(1)</script><path id="ok" d="M0 0L1 1L1 0Z"/>`,
      ),
      render,
    );
    expect(parsed.shapes.map((s) => s.name)).toEqual(['ok']);
    const laughs = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><path id="&b;" d="M0 0L1 1L1 0Z"/></svg>`;
    expect(() => parseSvgShapes(laughs, render)).toThrow(/not well-formed SVG/);
    const external = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><path id="&x;" d="M0 0L1 1L1 0Z"/></svg>`;
    expect(() => parseSvgShapes(external, render)).toThrow(/not well-formed SVG/);
    expect(() => parseSvgShapes('<html><body/></html>', render)).toThrow(/not an SVG document/);
    expect(() => parseSvgShapes('<svg><path id="a" d="M0 0"></svg>', render)).toThrow(/not well-formed SVG/);
    expect(() => parseSvgShapes('', render)).toThrow();
  });

  it('a path that svgpath cannot read is noted and skipped', () => {
    const parsed = parseSvgShapes(svg('<path id="bad" d="M 10 L"/><polygon id="short" points="1,2"/>'), render);
    expect(parsed.shapes).toEqual([]);
    expect(parsed.notes).toHaveLength(2);
  });
});

describe('the import report', () => {
  const references: Reference[] = [
    { referenceType: 'apartment', referenceId: 'a1', name: 'A-101', externalId: 'HV-A-101' },
    { referenceType: 'apartment', referenceId: 'a2', name: 'A 102', externalId: null },
    { referenceType: 'apartment', referenceId: 'a3', name: 'Twin', externalId: 'T-1' },
    { referenceType: 'apartment', referenceId: 'a4', name: 'Twin', externalId: 'T-2' },
    { referenceType: 'building', referenceId: 'b1', name: 'Building B' },
  ];

  it('matches by externalId or name (case and underscores aside), lists unmatched, duplicates and ambiguous names', () => {
    const report = importSvg(
      svg(`
        <path id="hv-a-101" d="M0 0L10 0L10 10Z"/>
        <path id="A_102" d="M20 0L30 0L30 10Z"/>
        <path id="building b" d="M40 0L50 0L50 10Z"/>
        <path id="A-101" d="M60 0L70 0L70 10Z"/>
        <path id="Twin" d="M80 0L90 0L90 10Z"/>
        <path id="Nobody" d="M0 0L1 0L1 1Z"/>
        <path id="T-2" d="M900 0L1000 0L1000 10Z"/>
      `),
      render,
      references,
    );
    expect(report.matched.map((m) => [m.name, m.referenceType, m.referenceId])).toEqual([
      ['hv-a-101', 'apartment', 'a1'],
      ['A_102', 'apartment', 'a2'],
      ['building b', 'building', 'b1'],
    ]);
    expect(report.matched[0]!.label).toBe('A-101');
    expect(report.duplicates).toEqual(['A-101']);
    expect(report.unmatched).toEqual(['Twin', 'Nobody', 'T-2']);
    expect(report.notes.join(' ')).toMatch(/"Twin" names 2 homes/);
    expect(report.notes.join(' ')).toMatch(/"T-2" reaches outside the render/);
  });

  it('a file that cannot be read is a report with one note and nothing matched', () => {
    const report = importSvg('not xml at all <', render, references);
    expect(report.matched).toEqual([]);
    expect(report.notes).toHaveLength(1);
  });
});
