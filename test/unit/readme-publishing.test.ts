import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { slugify } from '../../src/modules/estates/service.js';

// README "Publishing the page" continues "Your first project in ten commands" (issue 34): the slug its
// example opens is the walk-through's estate's, and every home the walk-through makes has a currency (the
// page writes each price in its home's currency).
const README = readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const section = (title: string) => {
  const start = README.indexOf(`\n## ${title}\n`);
  expect(start, title).toBeGreaterThan(0);
  return README.slice(start, README.indexOf('\n## ', start + 1));
};

describe('README: the page example follows the walk-through', () => {
  const walk = section('Your first project in ten commands');
  const publishing = section('Publishing the page');

  it("opens the walk-through's estate by its slug", () => {
    const names = [...walk.matchAll(/POST localhost:3000\/api\/v1\/estate -H[^\n]*\n\s*-d '\{"name":"([^"]+)"/g)].map((m) => m[1]!);
    expect(names).toHaveLength(1);
    const slug = slugify(names[0]!);
    expect(walk).toContain(`"slug":"${slug}"`);
    const opened = [...publishing.matchAll(/\/p\/([a-z0-9-]+)/g)].map((m) => m[1]!);
    expect(opened.length).toBeGreaterThan(0);
    expect(new Set(opened)).toEqual(new Set([slug]));
  });

  it('sets a currency on every home it makes', () => {
    // The commands (not the answers, `# =>`): each home's fields run from its name to the next home or the end of the JSON.
    const commands = walk
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n');
    // The bodies that make homes (POST /apartment and /apartment/bulk: they name the building).
    const bodies = commands
      .split('\n')
      .filter((line) => line.trimStart().startsWith(`-d '{"buildingId"`))
      .map((line) => line.replaceAll(`'$BUILDING'`, 'B').replace(/^\s*-d '/, ''));
    const homes = bodies.flatMap((body) => [...body.matchAll(/"name":"(A-\d+)"[^']*?(?="name":"A-|')/g)]);
    expect(homes.map((m) => m[1])).toEqual(['A-101', 'A-102', 'A-201']);
    for (const [home] of homes) expect(home).toMatch(/"currency":"[A-Z]{3}"/);
  });
});
