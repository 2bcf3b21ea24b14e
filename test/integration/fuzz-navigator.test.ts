import fc from 'fast-check';
import svgpath from 'svgpath';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME_VARIABLES } from '../../src/modules/navigators/schemas.js';
import { nastyString } from '../fuzz/arbitraries.js';
import { integrityViolations } from '../fuzz/integrity.js';
import { call } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { createApartment } from '../helpers/factories.js';

/**
 * Shapes and themes drawn at random (issue 26): path strings built from SVG tokens, numbers of every
 * spelling (huge, tiny, NaN and Infinity written out, exponents) and hostile text; theme values from
 * colour spellings and CSS injection. Properties: never a 5xx; a refusal is a 422 that changes
 * nothing; whatever is stored is only normalised path data inside the overlay, only colours in the
 * service's spelling. FUZZ_RUNS and FUZZ_SEED scale and replay a run, as in fuzz.test.ts.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.CI ? 1000 : 200));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const W = 1920;
const H = 1080;

const number = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -50, max: 2_100 }).map(String) },
  { weight: 3, arbitrary: fc.double({ min: -10, max: 2_000, noNaN: true }).map((n) => String(n)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'NaN',
      'Infinity',
      '-Infinity',
      '1e999',
      '1e-999',
      '-0',
      '.5',
      '5.',
      '1e3',
      '1E+2',
      '00',
      '0x10',
      '1_000',
      '١٢',
      '+-1',
      '1e',
      '9'.repeat(400),
    ),
  },
);
const command = fc.constantFrom(...'MmLlHhVvCcSsQqTtAaZzRrXx'.split(''));
const separator = fc.constantFrom(' ', ',', '  ', '\n', '\t', '', ', ');
const token = fc.oneof({ weight: 2, arbitrary: command }, { weight: 6, arbitrary: number }, { weight: 1, arbitrary: nastyString.map(String) });
const pathString = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.tuple(token, separator), { maxLength: 30 }).map((parts) => `M ${parts.map(([t, s]) => t + s).join('')}`) },
  { weight: 1, arbitrary: fc.array(fc.tuple(token, separator), { maxLength: 30 }).map((parts) => parts.map(([t, s]) => t + s).join('')) },
  { weight: 1, arbitrary: fc.constantFrom('M0 0L10 10"/><script>alert(1)</script>', "M0 0'/>", 'M0 0 L 1e400 0', 'M NaN NaN', 'M 0 0 A 1e9 1e9 0 1 1 10 0') },
);

const colour = fc.oneof(
  fc.constantFrom(
    'red',
    'RED',
    'transparent',
    'rebeccapurple',
    '#fff',
    '#ffff',
    '#abcdef',
    '#abcdef80',
    'rgb(1 2 3)',
    'rgba(1,2,3,.5)',
    'hsl(1 2% 3%)',
    'hsla(1,2%,3%,0.1)',
  ),
  fc.constantFrom(
    'red;}body{display:none}',
    'url(x)',
    'expression(1)',
    'var(--x)',
    'rgb(1,2,3);color:red',
    '#12345',
    'lab(1 2 3)',
    'inherit',
    '</style>',
    'rgb(NaN,0,0)',
  ),
  fc.tuple(fc.constantFrom('rgb(', 'rgba(', 'hsl(', '#'), number, fc.constantFrom(',', ' '), number, fc.constantFrom(')', '', ');}')).map((p) => p.join('')),
  nastyString.map(String),
);

interface Parsed {
  err: string;
  segments: Array<[string, ...number[]]>;
  abs(): Parsed;
  unshort(): Parsed;
  unarc(): Parsed;
  toString(): string;
}
const parse = svgpath as unknown as (path: string) => Parsed;

/** Every point of a path (curve control points and arcs as curves included), H and V with the current other coordinate. */
function points(path: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let at: [number, number] = [0, 0];
  let start: [number, number] = [0, 0];
  for (const [cmd, ...n] of parse(path).abs().unshort().unarc().segments) {
    const here: Array<[number, number]> = [];
    if (cmd === 'H') here.push([n[0]!, at[1]]);
    else if (cmd === 'V') here.push([at[0], n[0]!]);
    else for (let i = 0; i + 1 < n.length; i += 2) here.push([n[i]!, n[i + 1]!]);
    out.push(...here);
    if (cmd === 'Z') at = start;
    else if (here.length) at = here[here.length - 1]!;
    if (cmd === 'M') start = at;
  }
  return out;
}

/** What the service may store: its own spelling of a colour, nothing else. */
const STORED_COLOUR = /^(#[0-9a-f]{6}|rgba\(\d{1,3}, \d{1,3}, \d{1,3}, (0|1|0?\.\d+)\))$/;

describe('fuzzing navigator shapes and themes', () => {
  let t: TestApp;
  let a: TestOrg;
  let nav: string;
  let frame: string;
  let apartment: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_KEY_MAX: '100000000' } });
    a = await t.createOrg('Fuzz shapes');
    const setup = await call(t, 'POST', '/api/v1/estate/setup', a.key, { name: 'Fuzz shapes' }, 201);
    nav = setup.navigator.id;
    apartment = (await createApartment(t, a.key, setup.building.id)).id;
    const asset = (await insertAssetRow(t.db, a.id, { width: W, height: H })).id;
    frame = (await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: asset, angle: 0 }, 201)).id;
  });
  afterAll(async () => t?.close());

  it(
    'random path data: 200 with only normalised path data inside the overlay, or 422 with nothing changed',
    async () => {
      const url = `/api/v1/navigator/${nav}/images/${frame}/shapes`;
      await fc.assert(
        fc.asyncProperty(fc.array(pathString, { minLength: 1, maxLength: 4 }), async (paths) => {
          const before = await t.db.query<{ shape: string }>('SELECT shape FROM navigator_shapes ORDER BY position');
          const body = paths.map((shape) => ({ referenceType: 'apartment', referenceId: apartment, shape }));
          const res = await t.request({ method: 'PUT', url, key: a.key, body });
          if (res.statusCode >= 500) throw new Error(`${res.statusCode} ${res.body} for ${JSON.stringify(paths)}`);
          if (res.statusCode !== 200) {
            expect([400, 422], res.body).toContain(res.statusCode);
            expect(await t.db.query('SELECT shape FROM navigator_shapes ORDER BY position')).toEqual(before);
            return;
          }
          for (const { shape } of res.json().shapes as Array<{ shape: string }>) {
            expect(shape).toMatch(/^M[MLHVCSQTAZ0-9 .e+-]*$/);
            // What is stored parses again, to itself, and every point lies in the overlay.
            expect(parse(shape).err).toBe('');
            expect(parse(shape).toString()).toBe(shape);
            for (const [x, y] of points(shape)) {
              expect(x).toBeGreaterThanOrEqual(-1e-6);
              expect(x).toBeLessThanOrEqual(W + 1e-6);
              expect(y).toBeGreaterThanOrEqual(-1e-6);
              expect(y).toBeLessThanOrEqual(H + 1e-6);
            }
          }
        }),
        { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
      );
    },
    RUNS * 300 + 60_000,
  );

  it(
    'random theme values: 200 with only colours in the service’s spelling, or 422 with the theme unchanged',
    async () => {
      const url = `/api/v1/navigator/${nav}`;
      const theme = fc.dictionary(fc.constantFrom(...THEME_VARIABLES), colour, { minKeys: 1, maxKeys: 4 });
      await fc.assert(
        fc.asyncProperty(theme, async (customTheme) => {
          const before = (await call(t, 'GET', url, a.key, undefined, 200)).options.customTheme;
          const res = await t.request({ method: 'PATCH', url, key: a.key, body: { options: { customTheme } } });
          if (res.statusCode >= 500) throw new Error(`${res.statusCode} ${res.body} for ${JSON.stringify(customTheme)}`);
          if (res.statusCode !== 200) {
            expect(res.statusCode, res.body).toBe(422);
            expect((await call(t, 'GET', url, a.key, undefined, 200)).options.customTheme).toEqual(before);
            return;
          }
          for (const [key, value] of Object.entries(res.json().options.customTheme as Record<string, string>)) {
            if (key !== 'fontFamily') expect(value).toMatch(STORED_COLOUR);
          }
        }),
        { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
      );
    },
    RUNS * 300 + 60_000,
  );

  it('leaves no broken references and only normalised path data', async () => {
    expect(await integrityViolations(t.db)).toEqual([]);
  });
});
