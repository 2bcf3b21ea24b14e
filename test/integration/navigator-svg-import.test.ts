import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { TEST_DATABASE } from '../helpers/database.js';

/**
 * The SVG import on the server (issue 36: the shape editor's no-script path), through the navigators
 * service on a real database: the same reader and matcher as the editor, against the estate's homes,
 * in the renders' pixels; saving replaces only the matched homes' shapes, with If-Match.
 */
describe(`SVG import on the server, on ${TEST_DATABASE}`, () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let nav: string;
  let frame: string;
  let building: string;
  let first: { id: string };
  let second: { id: string };
  const svg = (body: string) => `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600">${body}</svg>`;
  const file = svg(`
    <path id="CRM-1" d="M10 10H110V60H10Z"/>
    <g transform="translate(200 0)"><rect data-name="A 2" id="A_2" x="0" y="0" width="50" height="50"/></g>
    <path id="Nobody" d="M0 0H1V1Z"/>
    <path id="A 2" d="M300 300H310V310Z"/>`);

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Import A');
    b = await t.createOrg('Import B');
    const setup = await call(t, 'POST', '/api/v1/estate/setup', a.key, { name: 'Import Park', buildingName: 'Tower I' });
    nav = setup.navigator.id;
    building = setup.building.id;
    first = await call(t, 'POST', '/api/v1/apartment', a.key, { buildingId: building, name: 'A 1', externalId: 'CRM-1' }, 201);
    second = await call(t, 'POST', '/api/v1/apartment', a.key, { buildingId: building, name: 'A 2' }, 201);
    const asset = (await insertAssetRow(t.db, a.id, { width: 1600, height: 1200 })).id;
    frame = (await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: asset, angle: 0 }, 201)).id;
    await call(
      t,
      'PUT',
      `/api/v1/navigator/${nav}/images/${frame}/shapes`,
      a.key,
      [
        { referenceType: 'building', referenceId: building, shape: 'M0 0H1600V1200H0Z' },
        { referenceType: 'apartment', referenceId: second.id, shape: 'M1 1H2V2Z' },
      ],
      200,
    );
  });
  afterAll(async () => t?.close());

  it('reports matched (by externalId and by name), unmatched and duplicate names, scaled to the render, saving nothing', async () => {
    const report = await t.app.services.navigators.svgImport.report(a.id, nav, frame, file);
    expect(report.matched.map((m) => [m.name, m.referenceId, m.label])).toEqual([
      ['CRM-1', first.id, 'A 1'],
      ['A 2', second.id, 'A 2'],
    ]);
    expect(report.unmatched).toEqual(['Nobody']);
    expect(report.duplicates).toEqual(['A 2']);
    expect(report.matched[0]!.path).toBe('M20 20H220V120H20Z');
    expect(report.matched[1]!.path).toBe('M400 0H500V100H400Z');
    const stored = await call(t, 'GET', `/api/v1/navigator/${nav}/images/${frame}/shapes`, a.key, undefined, 200);
    expect(stored).toHaveLength(2);
    const unreadable = await t.app.services.navigators.svgImport.report(a.id, nav, frame, '<svg><path></svg>');
    expect(unreadable.matched).toEqual([]);
    expect(unreadable.notes[0]).toMatch(/not well-formed SVG/);
  });

  it('saving replaces the matched homes’ shapes and keeps the others, only while the ETag it was shown with is current', async () => {
    const url = `/api/v1/navigator/${nav}/images/${frame}/shapes`;
    const shown = (await t.request({ method: 'GET', url, key: a.key })).headers.etag as string;
    await call(t, 'PUT', url, a.key, (await call(t, 'GET', url, a.key, undefined, 200)).map(strip), 200);
    await expect(t.app.services.navigators.svgImport.save(a.id, nav, frame, file, shown)).rejects.toMatchObject({ statusCode: 412 });
    const current = (await t.request({ method: 'GET', url, key: a.key })).headers.etag as string;
    const { report, frame: saved } = await t.app.services.navigators.svgImport.save(a.id, nav, frame, file, current);
    expect(report.matched).toHaveLength(2);
    expect(saved.shapes.map((s: { referenceId: string; shape: string }) => [s.referenceId, s.shape])).toEqual([
      [building, 'M0 0H1600V1200H0Z'],
      [first.id, 'M20 20H220V120H20Z'],
      [second.id, 'M400 0H500V100H400Z'],
    ]);
  });

  it('another organization’s navigator or frame is not found', async () => {
    await expect(t.app.services.navigators.svgImport.report(b.id, nav, frame, file)).rejects.toMatchObject({ statusCode: 404 });
    await expect(t.app.services.navigators.svgImport.report(a.id, nav, nav, file)).rejects.toMatchObject({ statusCode: 404 });
  });
});

const strip = ({ referenceType, referenceId, shape }: { referenceType: string; referenceId: string; shape: string }) => ({ referenceType, referenceId, shape });
