import { describe, expect, it } from 'vitest';
import { backHref, searchWithView, viewChain, viewClasses, viewOfAddress } from '../../src/modules/pages/shared/nested.js';
import {
  FOV,
  MAX_POI_LINKS,
  type View,
  clampPitch,
  linkText,
  poiLinks,
  project,
  viewerPanoramas,
  wrapYaw,
  zoomFov,
} from '../../src/modules/pages/shared/panorama.js';

// The 360° viewer's projection and data (shared/panorama.ts) and the nested navigators' address
// (shared/nested.ts): the rules the server render and the browser bundles share.

const view = (over: Partial<View> = {}): View => ({ yaw: 0, pitch: 0, fov: 90, width: 800, height: 600, ...over });
const near = (a: { x: number; y: number } | null, x: number, y: number) => {
  expect(a).not.toBeNull();
  expect(a!.x).toBeCloseTo(x, 6);
  expect(a!.y).toBeCloseTo(y, 6);
};

describe('project: yaw/pitch to the screen', () => {
  it('puts the direction looked at in the middle, whatever the view', () => {
    near(project(0, 0, view()), 400, 300);
    near(project(135, -30, view({ yaw: 135, pitch: -30 })), 400, 300);
    near(project(-170, 60, view({ yaw: 190, pitch: 60, fov: 40 })), 400, 300);
  });

  it('places yaw right of the middle and krpano pitch (down positive) below it, by the rectilinear projection', () => {
    // fov 90 over 600 px: the focal length is 300 px; 45° off axis is 300 px off the middle.
    near(project(45, 0, view()), 700, 300);
    near(project(-45, 0, view()), 100, 300);
    near(project(0, 45, view()), 400, 600);
    near(project(0, -30, view()), 400, 300 - 300 * Math.tan(Math.PI / 6));
    // Turning the view right moves what was ahead to the left.
    near(project(0, 0, view({ yaw: 20 })), 400 - 300 * Math.tan((20 * Math.PI) / 180), 300);
  });

  it('turns with the view: looking up, a point on the horizon ahead is below the middle', () => {
    const at = project(0, 0, view({ pitch: -20 }));
    near(at, 400, 300 + 300 * Math.tan((20 * Math.PI) / 180));
  });

  it('is null behind the viewer and outside the screen', () => {
    expect(project(180, 0, view())).toBeNull();
    expect(project(95, 0, view())).toBeNull();
    expect(project(60, 0, view())).toBeNull(); // 300 * tan 60° > 400: off the right edge
    expect(project(0, 89, view())).toBeNull();
  });

  it('zooming narrows the view: the same point moves away from the middle', () => {
    const wide = project(20, 0, view({ fov: 90 }))!;
    const narrow = project(20, 0, view({ fov: 60 }))!;
    expect(narrow.x - 400).toBeGreaterThan(wide.x - 400);
  });
});

describe('angles and zoom', () => {
  it('wraps yaw into -180..180 and clamps pitch to -90..90', () => {
    expect(wrapYaw(190)).toBe(-170);
    expect(wrapYaw(-190)).toBe(170);
    expect(wrapYaw(720 + 45)).toBe(45);
    expect(clampPitch(120)).toBe(90);
    expect(clampPitch(-95)).toBe(-90);
  });

  it('keeps the field of view within its bounds', () => {
    expect(zoomFov(FOV.start, 0.8)).toBeCloseTo(FOV.start * 0.8);
    expect(zoomFov(FOV.min, 0.5)).toBe(FOV.min);
    expect(zoomFov(FOV.max, 2)).toBe(FOV.max);
  });
});

describe('viewerPanoramas', () => {
  const base = { metadata: { hlookat: null, vlookat: null }, portals: [], pois: [] };
  it('keeps portals to panoramas of the same list, named by their target, and every point of interest', () => {
    const out = viewerPanoramas([
      {
        ...base,
        id: 'a',
        name: 'Living room',
        src: 'https://img.example/a.jpg',
        metadata: { hlookat: 370, vlookat: -10 },
        portals: [
          { x: 10, y: 5, toPanoramaId: 'b' },
          { x: 0, y: 0, toPanoramaId: 'elsewhere' },
          { x: 0, y: 0, toPanoramaId: null },
          { x: 0, y: 0, toPanoramaId: 'a' },
        ],
        pois: [{ name: 'Window', x: -200, y: 100, data: { urls: ['https://shop.example/blinds', 'javascript:alert(1)'] } }],
      },
      { ...base, id: 'b', name: 'Bedroom', src: 'https://img.example/b.jpg' },
    ]);
    expect(out).toEqual([
      {
        id: 'a',
        name: 'Living room',
        src: 'https://img.example/a.jpg',
        yaw: 10,
        pitch: -10,
        portals: [{ to: 'b', name: 'Bedroom', yaw: 10, pitch: 5 }],
        pois: [{ name: 'Window', yaw: 160, pitch: 90, urls: ['https://shop.example/blinds'] }],
      },
      { id: 'b', name: 'Bedroom', src: 'https://img.example/b.jpg', yaw: 0, pitch: 0, portals: [], pois: [] },
    ]);
  });
});

describe('the nested navigators’ address', () => {
  it('reads ?view= first, else the #navigator- fragment of the plain links', () => {
    expect(viewOfAddress('?status=ACTIVE&view=abc', '#navigator-def')).toBe('abc');
    expect(viewOfAddress('', '#navigator-def')).toBe('def');
    expect(viewOfAddress('', '#navigator-')).toBeNull();
    expect(viewOfAddress('', '#frame-1')).toBeNull();
    expect(viewOfAddress('?status=SOLD', '')).toBeNull();
  });

  it('writes ?view= keeping the other fields, and drops it for the top navigator', () => {
    expect(searchWithView('?status=ACTIVE', 'abc')).toBe('?status=ACTIVE&view=abc');
    expect(searchWithView('?view=abc&status=ACTIVE', 'def')).toBe('?view=def&status=ACTIVE');
    expect(searchWithView('?view=abc&status=ACTIVE', null)).toBe('?status=ACTIVE');
    expect(searchWithView('?view=abc', null)).toBe('');
  });
});

describe('poiLinks and linkText', () => {
  it('keeps absolute http and https links only, as the URL parser writes them, once each, at most MAX_POI_LINKS', () => {
    expect(
      poiLinks([
        'https://example.com/a b',
        'HTTP://Example.com/x',
        'javascript:alert(1)',
        'JaVaScRiPt:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        '//example.com/protocol-relative',
        '/relative',
        'mailto:a@example.com',
        'https://user:secret@example.com/',
        'https://example.com/a b',
        ' https://example.com/q?x="><script>alert(1)</script> ',
        42,
        null,
      ]),
    ).toEqual(['https://example.com/a%20b', 'http://example.com/x', 'https://example.com/q?x=%22%3E%3Cscript%3Ealert(1)%3C/script%3E']);
    expect(poiLinks(undefined)).toEqual([]);
    expect(poiLinks(null)).toEqual([]);
    expect(poiLinks(Array.from({ length: 30 }, (_, i) => `https://example.com/${i}`))).toHaveLength(MAX_POI_LINKS);
  });

  it('writes a link as its host and path', () => {
    expect(linkText('https://www.example.com/')).toBe('example.com');
    expect(linkText('https://shop.example/blinds?size=2')).toBe('shop.example/blinds?size=2');
    expect(linkText('http://example.com:8080/a')).toBe('example.com:8080/a');
  });
});

describe('viewChain, viewClasses and backHref (?view= on both sides)', () => {
  const tree = {
    id: 'top',
    nested: [
      { id: 'A', nested: [{ id: 'a1', nested: [] }] },
      { id: 'b', nested: [] },
    ],
  };
  it('finds a nested navigator by id (any case) with the chain above it; anything else is the top one', () => {
    expect(viewChain(tree, 'a1')).toEqual(['top', 'A', 'a1']);
    expect(viewChain(tree, 'a')).toEqual(['top', 'A']);
    expect(viewChain(tree, 'B')).toEqual(['top', 'b']);
    for (const id of ['top', 'nope', '', null, undefined]) expect(viewChain(tree, id)).toBeNull();
  });
  it('gives each navigator on the chain the classes client/nested.ts sets', () => {
    const chain = viewChain(tree, 'a1');
    expect(['top', 'A', 'a1', 'b'].map((id) => viewClasses(chain, id))).toEqual(['shows-nested', 'is-shown shows-nested', 'is-shown', '']);
    expect(viewClasses(null, 'top')).toBe('');
  });
  it('a way back is the page showing the parent, the filter kept, at its section', () => {
    expect(backHref('/p/x', '', 'top', true)).toBe('/p/x#navigator-top');
    expect(backHref('', '?status=ACTIVE', 'top', true)).toBe('/?status=ACTIVE#navigator-top');
    expect(backHref('/p/x', '?rooms=2', 'A', false)).toBe('/p/x?rooms=2&view=A#navigator-A');
  });
});
