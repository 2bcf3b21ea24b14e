import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../helpers/app.js';
import { apply, projectDir, writes } from '../helpers/apply-run.js';
import { TEST_DATABASE } from '../helpers/database.js';

interface Shape {
  referenceType: string;
  referenceId: string;
  shape: string;
  name: string | null;
}
interface Navigator {
  id: string;
  seoTitle: string | null;
  options: { startingAngle: number; hideColumns: string[]; customTheme: Record<string, string> };
  images: Array<{ id: string; angle: number; name: string; isMarketingStop: boolean; highlightLabel: string | null; asset: { name: string }; shapes: Shape[] }>;
  nested: Navigator[];
}

/** `estate-publisher apply` with the example's navigator (issue 26): frames by angle, shapes by apartment, the theme. */
describe(`estate-publisher apply: the navigator, on ${TEST_DATABASE}`, () => {
  let t: TestApp;
  let url: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  const newProject = async (name: string, slug: string) => {
    const org = await t.createOrg(name);
    const project = await projectDir(slug);
    dirs.push(project.dir);
    return { org, project };
  };
  const navigators = async (key: string) => {
    const estates = (await t.request({ method: 'GET', url: '/api/v1/estate', key })).json() as Array<{ id: string }>;
    const res = await t.request({ method: 'GET', url: `/api/v1/navigator?estateId=${estates[0]!.id}`, key });
    expect(res.statusCode, res.body).toBe(200);
    return { estateId: estates[0]!.id, list: res.json() as Navigator[] };
  };
  const apartmentIds = async (key: string, estateId: string) => {
    const list = (await t.request({ method: 'GET', url: `/api/v1/apartment?estateId=${estateId}`, key })).json() as {
      items: Array<{ id: string; externalId: string; name: string }>;
    };
    return new Map(list.items.map((a) => [a.externalId, a.id]));
  };

  it('creates the estate’s navigator with three frames, their shapes and the theme; the same file again sends no write', async () => {
    const { org, project } = await newProject('Navigator Developments', 'harbour-view-nav');
    const first = await apply(project.file, url, org.key);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('+ create the estate’s navigator');
    expect(first.out).toContain('+ create frame at 120° of navigator');
    expect(first.out).toContain('~ update shapes of frame at 240° of navigator');

    const { estateId, list } = await navigators(org.key);
    expect(list).toHaveLength(1);
    const nav = list[0]!;
    expect(nav.seoTitle).toBe('Harbour View in 3D');
    expect(nav.options).toMatchObject({ startingAngle: 0, hideColumns: ['priceCents'] });
    expect(nav.options.customTheme).toEqual({
      fontFamily: 'sans-serif',
      '--apartment-active-fill': 'rgba(34, 197, 94, 0.45)',
      '--apartment-active-stroke': '#16a34a',
      '--apartment-booked-fill': 'rgba(234, 179, 8, 0.45)',
      '--apartment-sold-fill': 'rgba(239, 68, 68, 0.45)',
      '--apartment-hidden-fill': 'rgba(0, 0, 0, 0)',
    });
    expect(nav.images.map((i) => [i.angle, i.asset.name])).toEqual([
      [0, 'Render from the water'],
      [120, 'Render from the park'],
      [240, 'Render from the street'],
    ]);
    expect(nav.images[0]).toMatchObject({ name: 'From the water', isMarketingStop: true });
    expect(nav.images[2]!.highlightLabel).toBe('Garden side');
    const ids = await apartmentIds(org.key, estateId);
    // By externalId, and by name (B-001 is HV-B-001's name); paths normalised.
    expect(nav.images[0]!.shapes.map((s) => [s.referenceId, s.shape, s.name])).toEqual([
      [ids.get('HV-A-101'), 'M420 610L640 610 640 720 420 720Z', null],
      [ids.get('HV-A-102'), 'M660 610L880 610 880 720 660 720Z', null],
      [ids.get('HV-B-001'), 'M1200 760H1500V900H1200Z', 'Shop'],
    ]);
    expect(nav.images[1]!.shapes[2]!.referenceType).toBe('building');

    const again = await apply(project.file, url, org.key);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('No changes. The service matches the file.');
    expect(writes(again)).toEqual([]);
  });

  it('plans only what changed: a theme colour, a shape’s path, a nested navigator; --prune-addons removes an undeclared frame', async () => {
    const { org, project } = await newProject('Navigator Edits', 'harbour-view-edits');
    expect((await apply(project.file, url, org.key)).code).toBe(0);

    await project.edit((text) =>
      text
        .replace("--apartment-active-stroke: '#16a34a'", '--apartment-active-stroke: green')
        .replace("'M 420 610 L 640 610 L 640 720 L 420 720 Z'", "'M 400 600 L 640 600 L 640 720 L 400 720 Z'")
        .replace(
          '  frames:\n    - asset: render-000',
          '  nested:\n    - building: Building A\n      frames:\n        - { asset: render-120, angle: 90 }\n  frames:\n    - asset: render-000',
        ),
    );
    const second = await apply(project.file, url, org.key);
    expect(second.code, second.err).toBe(0);
    expect(second.out).toContain('options.customTheme.--apartment-active-stroke: "#16a34a" -> "green"');
    expect(second.out).toContain('~ update shapes of frame at 0° of navigator');
    expect(second.out).toContain('+ create navigator of building "Building A"');
    expect(second.out).toMatch(/Plan: 2 to create, 2 to update, 0 to remove\./);
    const { list } = await navigators(org.key);
    expect(list[0]!.options.customTheme['--apartment-active-stroke']).toBe('#008000');
    expect(list[0]!.images[0]!.shapes[0]!.shape).toBe('M400 600L640 600 640 720 400 720Z');
    expect(list[0]!.nested.map((n) => n.images.map((i) => i.angle))).toEqual([[90]]);
    expect((await apply(project.file, url, org.key)).out).toContain('No changes.');

    // A frame the file no longer declares is kept, and removed with --prune-addons.
    await project.edit((text) => text.replace(/ {4}- asset: render-240\n(?: {6}.*\n)+/, ''));
    const kept = await apply(project.file, url, org.key);
    expect(kept.out).toContain('frame at 240° of navigator');
    expect(writes(kept)).toEqual([]);
    const pruned = await apply(project.file, url, org.key, { pruneAddons: true });
    expect(pruned.code, pruned.err).toBe(0);
    expect(pruned.out).toContain('- remove frame at 240° of navigator');
    expect((await navigators(org.key)).list[0]!.images.map((i) => i.angle)).toEqual([0, 120]);
  });

  it('a file with a theme value that is not a colour, or a path that does not parse, stops before anything is sent', async () => {
    const { org, project } = await newProject('Navigator Mistakes', 'harbour-view-mistakes');
    await project.edit((text) =>
      text.replace('--apartment-hidden-fill: transparent', '--apartment-hidden-fill: red;}body{display:none}').replace("'M 700 700 C", "'M 700 700 X"),
    );
    const run = await apply(project.file, url, org.key);
    expect(run.code).toBe(2);
    expect(run.err).toContain('navigator.options.customTheme.--apartment-hidden-fill');
    expect(run.err).toContain('navigator.frames[2].shapes[0].path');
    expect(run.requests).toEqual([]);
  });
});
