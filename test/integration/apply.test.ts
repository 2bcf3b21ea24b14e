import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../helpers/app.js';
import { apply, projectDir, writes } from '../helpers/apply-run.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { servePng } from '../helpers/keyed-creates.js';

/* The project copy and the apply runner: test/helpers/apply-run.ts. */

describe(`estate-publisher apply, on ${TEST_DATABASE}`, () => {
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

  /** A new organization and its own copy of examples/ (removed after the file). */
  const newProject = async (organization: string, slug?: string) => {
    const org = await t.createOrg(organization);
    const project = await projectDir(slug);
    dirs.push(project.dir);
    return { org, project };
  };

  const get = async <T>(key: string, route: string): Promise<T> => {
    const res = await t.request({ method: 'GET', url: route, key });
    expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
    return res.json() as T;
  };

  it('creates the example project in an empty organization; the same file again plans no changes and sends no write', async () => {
    const { org, project } = await newProject('Harbour Developments');

    const dry = await apply(project.file, url, org.key, { dryRun: true });
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toContain('+ create estate harbour-view');
    expect(dry.out).toContain('Dry run: nothing was sent.');
    expect(writes(dry)).toEqual([]);

    const first = await apply(project.file, url, org.key);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('+ create building "Building A"');
    expect(first.out).toContain('+ create apartment HV-A-101 in building "Building A"');
    expect(first.out).toContain('+ upload asset facade (files/facade.png');
    expect(first.out).toMatch(/Plan: 33 to create, 8 to update, 0 to remove\./);
    expect(first.out).toContain('Applied: 33 created, 8 updated, 0 removed.');

    // The service holds what the file says.
    const estates = await get<Array<{ id: string; slug: string; name: string; buildings: Array<{ id: string; name: string; features: unknown[] }> }>>(
      org.key,
      '/api/v1/estate',
    );
    expect(estates.map((e) => e.slug)).toEqual(['harbour-view']);
    const estate = estates[0]!;
    expect(estate.buildings.map((b) => b.name).sort()).toEqual(['Building A', 'Building B']);
    const apartments = await get<{ items: Array<{ externalId: string; priceCents: number; status: string; assetsIds: string[]; apartmentData: object }> }>(
      org.key,
      `/api/v1/apartment?estateId=${estate.id}`,
    );
    const a101 = apartments.items.find((a) => a.externalId === 'HV-A-101')!;
    expect(a101).toMatchObject({ priceCents: 42_500_000, status: 'ACTIVE', apartmentData: { area: 64.5, rooms: 3, exposures: ['S', 'W'] } });
    expect(a101.assetsIds).toHaveLength(1);
    expect(apartments.items).toHaveLength(3);

    const gallery = await get<{ enabled: boolean; sections: Array<{ title: string; items: Array<{ caption: string | null; asset: { name: string } }> }> }>(
      org.key,
      `/api/v1/estates/${estate.id}/gallery`,
    );
    expect(gallery.enabled).toBe(true);
    expect(gallery.sections.map((s) => [s.title, s.items.map((i) => i.asset.name)])).toEqual([
      ['Exterior', ['Facade at dusk', 'garden.png']],
      ['Interior', ['lobby.png']],
    ]);
    const investment = await get<{ sections: Array<{ title: string; description: string; files: Array<{ label: string }> }> }>(
      org.key,
      `/api/v1/estates/${estate.id}/investment`,
    );
    expect(investment.sections.map((s) => [s.title, s.files.map((f) => f.label)])).toEqual([
      ['The project', ['Brochure (PDF)']],
      ['Prices', ['Price list']],
    ]);
    const map = await get<{ enabled: boolean; centerLat: number; tileStyle: string; logoAsset: { name: string }; pois: Array<{ label: string }> }>(
      org.key,
      `/api/v1/estates/${estate.id}/map`,
    );
    expect(map).toMatchObject({ enabled: true, centerLat: 54.352, tileStyle: 'VOYAGER', logoAsset: { name: 'Harbour View logo' } });
    expect(map.pois.map((p) => p.label)).toEqual(['Central station', 'Harbour park']);
    const downloads = await get<{ groups: Array<{ title: string; items: Array<{ label: string }> }> }>(org.key, `/api/v1/estates/${estate.id}/downloads`);
    expect(downloads.groups.map((g) => [g.title, g.items.map((i) => i.label)])).toEqual([['Documents', ['Brochure', 'Price list (updated weekly)']]]);
    // Anonymous visitors see the add-ons the file enabled.
    const anonymous = await t.request({ method: 'GET', url: `/api/v1/estates/${estate.id}/downloads` });
    expect(anonymous.statusCode).toBe(200);

    const second = await apply(project.file, url, org.key);
    expect(second.code, second.err).toBe(0);
    expect(second.out).toContain('No changes. The service matches the file.');
    expect(writes(second)).toEqual([]);
    const assets = await get<unknown[]>(org.key, '/api/v1/asset');
    expect(assets).toHaveLength(9); // nothing uploaded twice
  });

  it('a changed price, order and a new gallery item: the plan names exactly those, the result matches, and a third run is quiet', async () => {
    const { org, project } = await newProject('Changes Developments', 'changes-view');
    expect((await apply(project.file, url, org.key)).code).toBe(0);

    await project.edit((text) =>
      text
        .replace('priceCents: 42500000', 'priceCents: 43900000')
        .replace(
          '          - { asset: facade, caption: The facade at dusk }\n          - { asset: garden }\n',
          '          - { asset: garden }\n          - { asset: facade, caption: The facade at dusk }\n          - { asset: logo, caption: Our sign }\n',
        ),
    );
    const changed = await apply(project.file, url, org.key);
    expect(changed.code, changed.err).toBe(0);
    const planLines = changed.out
      .slice(0, changed.out.indexOf('Plan:'))
      .split('\n')
      .filter((l) => /^ {2}[+~-] /.test(l));
    expect(planLines).toEqual([
      '  ~ update apartment HV-A-101',
      '  + create gallery item logo in section "Exterior"',
      '  ~ reorder items of gallery section "Exterior"',
    ]);
    expect(changed.out).toContain('priceCents: 42500000 -> 43900000');
    expect(changed.out).toContain('order: garden, facade, logo');
    // Only the upsert, the new item and the reorder were written; the logo file was already there.
    expect(writes(changed).map((w) => w.replace(/[0-9a-f-]{36}/g, ':id'))).toEqual([
      'POST /api/v1/apartment/upsert',
      'POST /api/v1/estates/:id/gallery/items',
      'PUT /api/v1/estates/:id/gallery/sections/:id/items/order',
    ]);

    const estate = (await get<Array<{ id: string }>>(org.key, '/api/v1/estate'))[0]!;
    const apartment = await get<{ items: Array<{ priceCents: number; priceChangeHistory: unknown[] }> }>(org.key, '/api/v1/apartment?externalId=HV-A-101');
    expect(apartment.items[0]?.priceCents).toBe(43_900_000);
    const gallery = await get<{ sections: Array<{ title: string; items: Array<{ caption: string | null; asset: { name: string } }> }> }>(
      org.key,
      `/api/v1/estates/${estate.id}/gallery`,
    );
    expect(gallery.sections[0]?.items.map((i) => [i.asset.name, i.caption])).toEqual([
      ['garden.png', null],
      ['Facade at dusk', 'The facade at dusk'],
      ['Harbour View logo', 'Our sign'],
    ]);

    const again = await apply(project.file, url, org.key);
    expect(again.out).toContain('No changes.');
    expect(writes(again)).toEqual([]);

    // An item declared in another section is moved there (same item id), not made again.
    const lobbyBefore = (await get<{ sections: Array<{ items: Array<{ id: string }> }> }>(org.key, `/api/v1/estates/${estate.id}/gallery`)).sections[1]
      ?.items[0]?.id;
    await project.edit((text) =>
      text
        .replace('        items:\n          - { asset: lobby, caption: The lobby }\n', '        items: []\n')
        .replace('          - { asset: garden }\n', '          - { asset: lobby, caption: The lobby }\n          - { asset: garden }\n'),
    );
    const moved = await apply(project.file, url, org.key);
    expect(moved.code, moved.err).toBe(0);
    expect(moved.out).toContain('~ update gallery item lobby in section "Exterior"');
    expect(moved.out).toContain('place: section "Interior" -> section "Exterior"');
    const after = await get<{ sections: Array<{ title: string; items: Array<{ id: string; asset: { name: string } }> }> }>(
      org.key,
      `/api/v1/estates/${estate.id}/gallery`,
    );
    expect(after.sections.map((s) => [s.title, s.items.map((i) => i.asset.name)])).toEqual([
      ['Exterior', ['lobby.png', 'garden.png', 'Facade at dusk', 'Harbour View logo']],
      ['Interior', []],
    ]);
    expect(after.sections[0]?.items[0]?.id).toBe(lobbyBefore);
    expect((await apply(project.file, url, org.key)).out).toContain('No changes.');
  });

  it('children the file no longer names are kept, and removed only with --prune-addons', async () => {
    const { org, project } = await newProject('Prune Developments', 'prune-view');
    expect((await apply(project.file, url, org.key)).code).toBe(0);
    await project.edit((text) => text.replace('      - title: Interior\n        items:\n          - { asset: lobby, caption: The lobby }\n', ''));

    const kept = await apply(project.file, url, org.key);
    expect(kept.out).toContain('No changes.');
    expect(kept.out).toContain('gallery section "Interior"');
    expect(writes(kept)).toEqual([]);

    const pruned = await apply(project.file, url, org.key, { pruneAddons: true });
    expect(pruned.code, pruned.err).toBe(0);
    expect(pruned.out).toContain('- remove gallery section "Interior"');
    // Its items would stay as ungrouped ones: they go too.
    expect(pruned.out).toContain('- remove gallery item "lobby.png" in section "Interior"');
    expect(pruned.out).toContain('Plan: 0 to create, 0 to update, 2 to remove.');
    const estate = (await get<Array<{ id: string }>>(org.key, '/api/v1/estate'))[0]!;
    const gallery = await get<{ sections: Array<{ title: string }>; items: unknown[] }>(org.key, `/api/v1/estates/${estate.id}/gallery`);
    expect(gallery.sections.map((s) => s.title)).toEqual(['Exterior']);
    expect(gallery.items).toEqual([]);
    expect((await apply(project.file, url, org.key, { pruneAddons: true })).out).toContain('No changes.');
  });

  it('an asset given by URL is downloaded, uploaded once, and matched by content afterwards; an unreachable URL stops before any write', async () => {
    const { org, project } = await newProject('Url Developments', 'url-view');
    const png = await servePng();
    try {
      await project.edit((text) => text.replace('  lobby: { path: files/lobby.png }', `  lobby: { url: "${png.url}", name: Lobby }`));
      const first = await apply(project.file, url, org.key);
      expect(first.code, first.err).toBe(0);
      expect(first.out).toContain(`+ upload asset lobby (${png.url},`);
      const assets = await get<Array<{ name: string; sha256: string }>>(org.key, '/api/v1/asset');
      expect(assets.find((a) => a.name === 'Lobby')?.sha256).toMatch(/^[0-9a-f]{64}$/);
      const second = await apply(project.file, url, org.key);
      expect(second.out).toContain('No changes.');
      expect(writes(second)).toEqual([]);
    } finally {
      await png.close();
    }
    const gone = await apply(project.file, url, org.key);
    expect(gone.code).toBe(1);
    expect(gone.err).toMatch(/nothing was changed: assets\.lobby: could not download http:\/\/127\.0\.0\.1:\d+\/room\.png/);
    expect(gone.requests).toEqual([]);
  });

  it('settles on what the service stores: trimmed titles and labels, an empty label, -0, a building renamed in case only', async () => {
    const { org, project } = await newProject('Settle Developments', 'settle-view');
    await project.edit((text) =>
      text
        .replace('name: Harbour View\n', 'name: "Harbour View "\n')
        .replace('- title: The project', '- title: " The project "')
        .replace('{ asset: brochure, label: Brochure (PDF) }', '{ asset: brochure, label: " Brochure (PDF) " }')
        .replace('customDistanceLabel: 5 minutes on foot', 'customDistanceLabel: " 5 minutes on foot "')
        .replace('- title: Documents', '- title: "Documents "')
        .replace('{ asset: brochure }\n', '{ asset: brochure, label: "" }\n')
        .replace('priceCents: 61000000', 'priceCents: -0'),
    );
    const first = await apply(project.file, url, org.key);
    expect(first.code, first.err).toBe(0);
    const second = await apply(project.file, url, org.key);
    expect(second.out).toContain('No changes.');
    expect(second.out).not.toContain('Not in the file');
    expect(writes(second)).toEqual([]);

    await project.edit((text) => text.replace('  - name: Building B', '  - name: BUILDING B'));
    const renamed = await apply(project.file, url, org.key);
    expect(renamed.out).toContain('~ update building "BUILDING B"');
    expect(renamed.out).toContain('name: "Building B" -> "BUILDING B"');
    expect(renamed.out).not.toContain('create building');
    expect((await apply(project.file, url, org.key)).out).toContain('No changes.');
  });

  it('a name one apartment gives up (moved to another building) is free for a new apartment in the same run', async () => {
    const { org, project } = await newProject('Names Developments', 'names-view');
    expect((await apply(project.file, url, org.key)).code).toBe(0);
    // HV-A-101 moves to Building B under its name; a new apartment takes "A-101" in Building A.
    await project.edit((text) =>
      text
        .replace('      - externalId: HV-A-101\n        name: A-101\n', '      - externalId: HV-A-101-NEW\n        name: A-101\n')
        .replace('      - externalId: HV-B-001\n', '      - externalId: HV-A-101\n        name: A-101\n      - externalId: HV-B-001\n'),
    );
    const moved = await apply(project.file, url, org.key);
    expect(moved.code, moved.err).toBe(0);
    const update = moved.out.indexOf('✓ update 1 apartment in building "Building B"');
    expect(update).toBeGreaterThan(0);
    expect(update).toBeLessThan(moved.out.indexOf('✓ create 1 apartment in building "Building A"'));
    expect((await apply(project.file, url, org.key)).out).toContain('No changes.');
  });

  it('equal files are one asset: uploaded once, and a copy uploaded later by hand changes nothing', async () => {
    const { org, project } = await newProject('Twins Developments', 'twins-view');
    await project.edit((text) =>
      text.replace('  lobby: { path: files/lobby.png }', '  lobby: { path: files/lobby.png }\n  lobby-copy: { path: files/lobby.png }'),
    );
    const first = await apply(project.file, url, org.key);
    expect(first.code, first.err).toBe(0);
    expect(first.out).not.toContain('upload asset lobby-copy');
    const copy = await t.request({
      method: 'POST',
      url: '/api/v1/asset/upload',
      key: org.key,
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: Buffer.concat([
        Buffer.from('--xyz\r\nContent-Disposition: form-data; name="file"; filename="facade.png"\r\nContent-Type: image/png\r\n\r\n'),
        await readFile(path.join(project.dir, 'files/facade.png')),
        Buffer.from('\r\n--xyz--\r\n'),
      ]),
    });
    expect(copy.statusCode, copy.body).toBe(201);
    const again = await apply(project.file, url, org.key);
    expect(again.out).toContain('No changes.');
    expect(writes(again)).toEqual([]);
  });

  it('--prune-addons: the plan names the order it will write', async () => {
    const { org, project } = await newProject('Prune Order Developments', 'prune-order-view');
    expect((await apply(project.file, url, org.key)).code).toBe(0);
    await project.edit((text) =>
      text
        .replace('      - { label: Central station, category: TRANSIT, lat: 54.3557, lng: 18.6444 }\n', '')
        .replace(
          'customDistanceLabel: 5 minutes on foot }\n',
          'customDistanceLabel: 5 minutes on foot }\n      - { label: Old town, category: LANDMARK, lat: 54.349, lng: 18.653 }\n',
        ),
    );
    const pruned = await apply(project.file, url, org.key, { pruneAddons: true });
    expect(pruned.code, pruned.err).toBe(0);
    const shown = pruned.out.slice(0, pruned.out.indexOf('Plan:'));
    expect(shown).toContain('+ create map point "Old town"');
    expect(shown).toContain('- remove map point "Central station"');
    const orderWrites = writes(pruned).filter((w) => w.endsWith('/order'));
    expect(orderWrites.length > 0).toBe(shown.includes('reorder map points'));
    expect((await apply(project.file, url, org.key, { pruneAddons: true })).out).toContain('No changes.');
  });

  it('a file with mistakes is refused before any request, each mistake named by line and path', async () => {
    const { org, project } = await newProject('Mistakes Developments', 'mistakes-view');
    await project.edit((text) =>
      text
        .replace('slug: mistakes-view', 'slug: Mistakes View')
        .replace('priceCents: 39900000', 'priceCents: -1')
        .replace('externalId: HV-B-001', 'externalId: HV-A-101')
        .replace('path: files/lobby.png', 'path: files/missing.png')
        .replace('- { asset: garden }', '- { asset: pool }')
        .replace('tileStyle: VOYAGER', 'tileStyle: VOYAGER\n    colour: blue'),
    );
    const first = await apply(project.file, url, org.key);
    expect(first.code).toBe(2);
    expect(first.requests).toEqual([]);
    expect(first.err).toContain('is not a valid project file; nothing was sent.');
    expect(first.err).toMatch(/project\.yaml:9:9: estate\.slug: /);
    expect(first.err).toMatch(/project\.yaml:\d+:\d+: buildings\[0\]\.apartments\[1\]\.priceCents: Expected integer to be greater or equal to 0/);
    expect(first.err).toMatch(/project\.yaml:\d+:\d+: addons\.map\.colour: Unexpected property/);

    // The schema passes once those are fixed: then what only a whole-file check sees.
    await project.edit((text) =>
      text.replace('slug: Mistakes View', 'slug: mistakes-view').replace('priceCents: -1', 'priceCents: 1').replace('\n    colour: blue', ''),
    );
    const second = await apply(project.file, url, org.key);
    expect(second.code).toBe(2);
    expect(second.requests).toEqual([]);
    expect(second.err).toMatch(/project\.yaml:\d+:\d+: assets\.lobby\.path: no file at .*missing\.png/);
    expect(second.err).toMatch(/buildings\[1\]\.apartments\[0\]\.externalId: externalId "HV-A-101" repeats buildings\[0\]\.apartments\[0\]/);
    expect(second.err).toMatch(/addons\.gallery\.sections\[0\]\.items\[1\]\.asset: "pool" is not an entry of assets/);

    // Names every object inherits are no entries; an apartment names a file once; an asset name keeps to its pattern.
    await project.edit((text) =>
      text
        .replace('path: files/missing.png', 'path: files/lobby.png')
        .replace('- { asset: pool }', '- { asset: garden }')
        .replace('externalId: HV-A-102\n', 'externalId: HV-A-102\n        assets: [toString]\n')
        .replace('assets: [facade]', 'assets: [facade, facade]'),
    );
    const third = await apply(project.file, url, org.key);
    expect(third.code).toBe(2);
    expect(third.requests).toEqual([]);
    expect(third.err).toMatch(/"toString" is not an entry of assets/);
    expect(third.err).toMatch(/apartments\[0\]\.assets\[1\]: asset "facade" repeats/);
    await project.edit((text) => text.replace('  garden: { path: files/garden.png }', '  "bad name": { path: files/garden.png }'));
    expect((await apply(project.file, url, org.key)).err).toMatch(/assets\.bad name: /);

    await writeFile(project.file, 'estate: [\n  slug: x\n');
    const syntax = await apply(project.file, url, org.key);
    expect(syntax.code).toBe(2);
    expect(syntax.err).toMatch(/project\.yaml:\d+:\d+: /);
    expect(syntax.requests).toEqual([]);
  });

  it('a file the service refuses half-way (a PDF in the gallery) stops with its message; fixed, the next run converges', async () => {
    const { org, project } = await newProject('Refused Developments', 'refused-view');
    await project.edit((text) => text.replace('          - { asset: garden }\n', '          - { asset: brochure }\n'));
    const refused = await apply(project.file, url, org.key);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('✗ create gallery item brochure in section "Exterior"');
    expect(refused.err).toMatch(/create gallery item brochure in section "Exterior" failed: the service answered 4\d\d: .+/);
    expect(refused.err).toContain('run apply again');

    await project.edit((text) => text.replace('          - { asset: brochure }\n', '          - { asset: garden }\n'));
    const fixed = await apply(project.file, url, org.key);
    expect(fixed.code, fixed.err).toBe(0);
    expect(fixed.out).not.toContain('create estate');
    expect(fixed.out).not.toContain('upload asset facade');
    expect(fixed.out).toContain('+ create gallery item garden in section "Exterior"');
    expect((await apply(project.file, url, org.key)).out).toContain('No changes.');
  });

  it('refuses another organization’s estate slug as its own: it plans a create, which the service refuses', async () => {
    const { org: owner, project } = await newProject('Slug Owner', 'taken-slug');
    const other = await t.createOrg('Slug Other');
    expect((await apply(project.file, url, owner.key)).code).toBe(0);
    const second = await apply(project.file, url, other.key);
    expect(second.code).toBe(1);
    expect(second.out).toContain('+ create estate taken-slug');
    expect(second.err).toMatch(/create estate taken-slug failed: the service answered 409/);
    // Nothing of the owner's changed hands.
    expect((await get<unknown[]>(other.key, '/api/v1/estate')).length).toBe(0);
  });
});
