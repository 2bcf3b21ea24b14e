import { describe, expect, it } from 'vitest';
import { differences, jqPath, parseExpected, splitCommands, words } from '../helpers/shell-walkthrough.js';

describe('the README walk-through replay', () => {
  it('splits commands as sh does: continuations, multi-line quoted bodies, and the # => lines after each', () => {
    const commands = splitCommands(
      [
        'A=$(curl -s localhost:3000/x \\',
        "  -d '[1,",
        "  2]' | jq -r .id)",
        '# => 201 {"id":"…",',
        '#    "n":1}',
        '# a plain comment',
        'curl -s localhost:3000/y',
      ].join('\n'),
    );
    expect(commands).toEqual([
      { text: "A=$(curl -s localhost:3000/x    -d '[1,\n  2]' | jq -r .id)", expected: '201 {"id":"…","n":1}' },
      { text: 'curl -s localhost:3000/y', expected: undefined },
    ]);
  });

  it('expands variables outside single quotes only, and refuses what it does not understand', () => {
    expect(words(`curl -d '{"a":"'$X'"}' "$X/\${X}" '$X' | jq -r .id`, { X: 'v' })).toEqual([
      ['curl', '-d', '{"a":"v"}', 'v/v', '$X'],
      ['jq', '-r', '.id'],
    ]);
    expect(() => words('curl $UNSET', {})).toThrow(/UNSET is not set/);
    expect(() => words('curl a; rm -rf b', {})).toThrow(/does not understand/);
    expect(jqPath({ items: [{ id: 'x' }] }, '.items[0].id')).toBe('x');
  });

  it('matches an abridged answer only where it says …, and a complete one exactly', () => {
    expect(differences({ id: 'a1', n: 1, extra: true }, parseExpected('{"id":"…","n":1,…}'))).toEqual([]);
    expect(differences({ id: 'a1', n: 1, extra: true }, parseExpected('{"id":"…","n":1}'))).toEqual([
      '$: has extra, which the README does not show (add them or "…")',
    ]);
    expect(differences({ n: 2 }, parseExpected('{"n":1,…}'))).toEqual(['$.n: 2, expected 1']);
    expect(differences({ src: 'http://h/files/o/a' }, parseExpected('{"src":"http://h/files/…/…"}'))).toEqual([]);
    expect(differences({ src: 'https://h/x' }, parseExpected('{"src":"http://h/…"}'))).toHaveLength(1);
    expect(differences([1, 2, 3], parseExpected('[1,…,3]'))).toEqual([]);
    expect(differences([1, 2, 3], parseExpected('[1,2]'))).toEqual(['$: 3 elements, expected 2']);
    expect(differences([], parseExpected('[]'))).toEqual([]);
    expect(differences([{ s: 'SOLD' }], parseExpected('[{"s":"ACTIVE"},…]'))).toHaveLength(1);
  });
});
