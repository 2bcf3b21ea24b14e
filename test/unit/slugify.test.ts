import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SLUG_PATTERN } from '../../src/modules/estates/schemas.js';
import { slugify } from '../../src/modules/estates/service.js';

describe('slugify', () => {
  it.each([
    ['Żoliborz Park II', 'zoliborz-park-ii'],
    ['  Łódź  Kamienica ', 'lodz-kamienica'],
    ['Straße 5', 'strasse-5'],
    ['Café Crème — Phase 2!', 'cafe-creme-phase-2'],
    ['Riverside', 'riverside'],
    ['---', 'estate'],
    ['日本の家', 'estate'],
  ])('%s -> %s', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('always yields a slug the API accepts, of at most 80 characters', () => {
    const pattern = new RegExp(SLUG_PATTERN);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (name) => {
        const slug = slugify(name);
        expect(slug).toMatch(pattern);
        expect(slug.length).toBeLessThanOrEqual(80);
      }),
    );
  });
});
