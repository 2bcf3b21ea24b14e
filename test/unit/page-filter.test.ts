import { describe, expect, it } from 'vitest';
import { MAX_SHARED, filterOf, filterQuery, matches } from '../../src/modules/pages/shared/filter.js';
import { frameOfQuery, shownIndex } from '../../src/modules/pages/shared/frames.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const of = (query: string) => filterOf((k) => new URLSearchParams(query).get(k));

describe('the filter in the address: favourites (shared/filter.ts)', () => {
  it('favourites=1 is this browser’s favourites; favourites=id,id a shared set, matched by id, written back the same', () => {
    expect(of('favourites=1')).toEqual({ favourites: true });
    const shared = of(`favourites=${A},${B.toUpperCase()},${A},not-an-id`);
    expect(shared).toEqual({ shared: [A, B] });
    expect(filterQuery(shared)).toBe(`?favourites=${encodeURIComponent(`${A},${B}`)}`);
    expect(of(filterQuery(shared).slice(1))).toEqual(shared);
    expect(matches({ id: A, name: 'A1', status: 'ACTIVE' }, shared)).toBe(true);
    expect(matches({ id: '33333333-3333-4333-8333-333333333333', name: 'A3', status: 'ACTIVE' }, shared)).toBe(false);
    expect(matches({ name: 'no id', status: 'ACTIVE' }, shared)).toBe(false);
    expect(matches({ id: A, name: 'A1', status: 'HIDDEN' }, shared)).toBe(false);
    // Nothing usable: no filter; too many: the first MAX_SHARED.
    expect(of('favourites=x,y')).toEqual({});
    const many = Array.from({ length: MAX_SHARED + 5 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect(of(`favourites=${many.join(',')}`).shared).toHaveLength(MAX_SHARED);
  });
});

describe('the list’s page and the frame in the address (shared/filter.ts, shared/frames.ts)', () => {
  it('page=N from 2 is the list’s page (1 or nonsense: none), never a filter of homes; written back in its place', () => {
    expect(of('page=3')).toEqual({ page: 3 });
    for (const bad of ['page=1', 'page=0', 'page=-2', 'page=x', 'page=2.5', 'page=99999999']) expect(of(bad), bad).toEqual({});
    expect(filterQuery({ status: 'SOLD', page: 2 })).toBe('?status=SOLD&page=2');
    expect(matches({ name: 'A1', status: 'ACTIVE' }, { page: 7 })).toBe(true);
  });

  it('the frame shown first: the one ?frame= names, else the starting rule; only a UUID-shaped value counts', () => {
    const frames = [
      { id: A, angle: 0 },
      { id: B, angle: 120 },
    ];
    expect(shownIndex(frames, 110, null)).toBe(1);
    expect(shownIndex(frames, 110, A)).toBe(0);
    expect(shownIndex(frames, 110, '33333333-3333-4333-8333-333333333333')).toBe(1);
    expect(shownIndex([], 0, A)).toBe(-1);
    expect(frameOfQuery(A.toUpperCase())).toBe(A);
    for (const bad of [undefined, '', 'frame', ['x'], `${A}x`]) expect(frameOfQuery(bad)).toBeNull();
  });
});
