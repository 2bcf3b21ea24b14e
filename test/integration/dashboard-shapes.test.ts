import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { type DashboardUser, ORIGIN, joinAs } from '../helpers/dashboard.js';
import { TEST_DATABASE } from '../helpers/database.js';

/** The data block `<script type="application/json" data-…>` of the island's root, parsed. */
function jsonBlock(html: string, name: string): unknown {
  const match = new RegExp(`<script type="application/json" ${name}(?:="")?>([^<]*)</script>`).exec(html);
  if (!match) throw new Error(`no ${name} block`);
  return JSON.parse(match[1]!);
}

const ENTITIES: Record<string, string> = { '&quot;': '"', '&lt;': '<', '&gt;': '>', '&#39;': "'", '&amp;': '&' };
const attribute = (html: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(html)?.[1]?.replace(/&(quot|lt|gt|#39|amp);/g, (e) => ENTITIES[e]!);

/** A multipart body as a browser's form sends it. */
async function multipart(fields: Record<string, string>, file?: { name: string; text: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([file.text], { type: 'image/svg+xml' }), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

/**
 * The shapes screen (issue 36, phase 2), both engines: the frame's screen and its island's data, roles,
 * tenancy, the island's JSON load/save under the session (the API's validation, If-Match, CSRF), and
 * the no-script SVG import that reports before it saves.
 */
describe(`dashboard shapes screen, on ${TEST_DATABASE}`, () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let editor: DashboardUser;
  let viewer: DashboardUser;
  let outsider: DashboardUser;
  let nav: string;
  let frames: string[];
  let building: string;
  let first: { id: string };
  let second: { id: string };
  let bNav: string;
  let bFrame: string;
  let base: string;

  const screenUrl = (frame = frames[0]!, navigator = nav) => `${base}/navigators/${navigator}/frames/${frame}/shapes`;
  const apiShapes = (frame = frames[0]!) => `/api/v1/navigator/${nav}/images/${frame}/shapes`;
  const put = (user: DashboardUser, url: string, body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'PUT',
      url,
      headers: {
        cookie: `pps_session=${encodeURIComponent(user.cookie)}`,
        origin: ORIGIN,
        'content-type': 'application/json',
        'x-csrf-token': user.csrf,
        ...headers,
      },
      payload: JSON.stringify(body),
    });
  const postMultipart = async (user: DashboardUser, url: string, fields: Record<string, string>, file?: { name: string; text: string }) => {
    const { payload, contentType } = await multipart(fields, file);
    return t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: `pps_session=${encodeURIComponent(user.cookie)}`, origin: ORIGIN, 'content-type': contentType },
      payload,
    });
  };
  const storedShapes = async () => (await call(t, 'GET', apiShapes(), a.key, undefined, 200)) as Array<{ referenceId: string; shape: string }>;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Shapes A');
    b = await t.createOrg('Shapes B');
    base = `/dashboard/o/${a.id}`;
    editor = await joinAs(t, a.id, 'editor@shapes-a.example', 'editor');
    viewer = await joinAs(t, a.id, 'viewer@shapes-a.example', 'viewer');
    outsider = await joinAs(t, b.id, 'admin@shapes-b.example', 'admin');
    const setup = await call(t, 'POST', '/api/v1/estate/setup', a.key, { name: 'Shape Park', buildingName: 'Tower S' });
    nav = setup.navigator.id;
    building = setup.building.id;
    first = await call(t, 'POST', '/api/v1/apartment', a.key, { buildingId: building, name: 'S 1', externalId: 'CRM-S1', status: 'BOOKED' }, 201);
    second = await call(t, 'POST', '/api/v1/apartment', a.key, { buildingId: building, name: 'S 2' }, 201);
    const asset = (await insertAssetRow(t.db, a.id, { width: 1600, height: 1200 })).id;
    frames = [];
    for (const angle of [0, 90])
      frames.push((await call(t, 'POST', `/api/v1/navigator/${nav}/images`, a.key, { assetId: asset, angle, name: `View ${angle}` }, 201)).id);
    await call(t, 'PUT', apiShapes(), a.key, [{ referenceType: 'apartment', referenceId: first.id, shape: 'M100 100H300V250H100Z' }], 200);
    const bSetup = await call(t, 'POST', '/api/v1/estate/setup', b.key, { name: 'Other Park' });
    bNav = bSetup.navigator.id;
    const bAsset = (await insertAssetRow(t.db, b.id, { width: 800, height: 600 })).id;
    bFrame = (await call(t, 'POST', `/api/v1/navigator/${bNav}/images`, b.key, { assetId: bAsset, angle: 0 }, 201)).id;
  });
  afterAll(() => t?.close());

  it('the Shapes screen lists the estates’ navigators and their frames with how many shapes each has', async () => {
    const res = await viewer.get(`${base}/shapes`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Shape Park');
    expect(res.body).toContain(`href="${screenUrl(frames[0])}"`);
    expect(res.body).toContain(`href="${screenUrl(frames[1])}"`);
    expect(res.body).toMatch(/View 0<\/a><\/td><td>1<\/td>/);
    expect(res.body).toMatch(/View 90<\/a><\/td><td>0<\/td>/);
    expect(res.body).toContain(`href="${base}/shapes" aria-current="page"`);
    expect(res.body).not.toContain('Other Park');
  });

  it('an editor’s frame screen renders the island’s root with the render, its pixel size, shapes, ETag, homes, other frames and the CSRF header', async () => {
    const res = await editor.get(screenUrl());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    // same-origin, not the API's no-referrer: with no-referrer Chromium posts the screen's forms with Origin: null (refused).
    expect(res.headers['referrer-policy']).toBe('same-origin');
    const html = res.body;
    expect(html).toContain('data-module="shape-editor"');
    expect(attribute(html, 'data-render-width')).toBe('1600');
    expect(attribute(html, 'data-render-height')).toBe('1200');
    expect(attribute(html, 'data-render-src')).toMatch(/^http:\/\/localhost:3000\/files\//);
    const api = await t.request({ method: 'GET', url: apiShapes(), key: a.key });
    expect(attribute(html, 'data-shapes-etag')).toBe(api.headers.etag);
    expect(jsonBlock(html, 'data-shapes')).toEqual(api.json());
    expect(attribute(html, 'data-shapes-url')).toBe(`${screenUrl()}.json`);
    expect(attribute(html, 'data-frame-shapes-url')).toBe(`${base}/navigators/${nav}/frames/{frameId}/shapes.json`);
    expect(attribute(html, 'data-csrf-header')).toBe('x-csrf-token');
    expect(attribute(html, 'data-csrf-token')).toBe(editor.csrf);
    expect(jsonBlock(html, 'data-references')).toEqual([
      { referenceType: 'apartment', referenceId: first.id, name: 'S 1', externalId: 'CRM-S1', status: 'BOOKED' },
      { referenceType: 'apartment', referenceId: second.id, name: 'S 2', status: 'ACTIVE' },
      { referenceType: 'building', referenceId: building, name: 'Tower S' },
    ]);
    expect(jsonBlock(html, 'data-frames')).toEqual([{ id: frames[1], name: 'View 90' }]);
    // The island's files are served by the service (CSP 'self'), only on this screen.
    const script = /<script type="module" src="(\/p\/_assets\/shape-editor\.\w+\.js)"><\/script>/.exec(html)?.[1];
    const style = /<link rel="stylesheet" href="(\/p\/_assets\/shape-editor\.\w+\.css)"\/>/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();
    const js = await t.app.inject({ method: 'GET', url: script! });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('javascript');
    expect(js.body).toContain('data-module');
    expect((await t.app.inject({ method: 'GET', url: style! })).body).toContain('.shapes-static');
    expect((await editor.get(`${base}/shapes`)).body).not.toContain('shape-editor.');
    // Without JavaScript: the render with its shapes, and which homes have one.
    expect(html).toContain('<path d="M100 100H300V250H100Z" class="se-shape se-status-booked"><title>S 1 (CRM-S1)</title></path>');
    expect(html).toMatch(/aria-label="Homes without a shape"><li>S 2<\/li><li>Tower S \(building\)<\/li><\/ul>/);
    expect(html).toMatch(/aria-label="Homes with a shape"><li>S 1 \(CRM-S1\)<\/li><\/ul>/);
    expect(html).toContain('aria-label="SVG import"');
  });

  it('a viewer sees the render, its shapes and the homes, without the island, its script or the import form', async () => {
    const res = await viewer.get(screenUrl());
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('data-module="shape-editor"');
    expect(res.body).not.toMatch(/<script type="module"/);
    expect(res.body).not.toContain('aria-label="SVG import"');
    expect(res.body).toContain('<path d="M100 100H300V250H100Z"');
    expect(res.body).toContain('aria-label="Homes without a shape"');
  });

  it('another organization’s navigator or frame, an unknown frame or a bad id is 404; signed out goes to sign-in', async () => {
    expect((await outsider.get(screenUrl())).statusCode).toBe(404);
    expect((await outsider.get(`/dashboard/o/${b.id}/navigators/${nav}/frames/${frames[0]}/shapes`)).statusCode).toBe(404);
    expect((await editor.get(screenUrl(bFrame, bNav))).statusCode).toBe(404);
    expect((await editor.get(screenUrl(bFrame))).statusCode).toBe(404);
    expect((await editor.get(screenUrl('not-a-uuid'))).statusCode).toBe(404);
    expect((await editor.get(screenUrl(frames[0], 'not-a-uuid'))).statusCode).toBe(404);
    expect((await editor.get(`${screenUrl(bFrame, bNav)}.json`)).statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: screenUrl() });
    expect(anonymous.statusCode).toBe(303);
    expect(anonymous.headers.location).toMatch(/^\/dashboard\/sign-in\?next=/);
    const anonymousJson = await t.app.inject({ method: 'GET', url: `${screenUrl()}.json` });
    expect(anonymousJson.statusCode).toBe(401);
    expect(anonymousJson.json().message).toBe('Sign in first.');
  });

  it('the island’s JSON load and save: the session and CSRF token, If-Match (412 when stale), the API’s 400 and 422 messages, roles', async () => {
    const url = `${screenUrl()}.json`;
    const loaded = await editor.get(url);
    expect(loaded.statusCode).toBe(200);
    expect(loaded.headers['cache-control']).toBe('no-store');
    const etag = loaded.headers.etag as string;
    expect(etag).toBe((await t.request({ method: 'GET', url: apiShapes(), key: a.key })).headers.etag);
    const other = await editor.get(`${screenUrl(frames[1])}.json`);
    expect(other.json()).toEqual([]);

    const next = [
      { referenceType: 'apartment', referenceId: first.id, shape: 'M100 100H300V250H100Z' },
      { referenceType: 'apartment', referenceId: second.id, shape: 'M400 100H600V250H400Z' },
    ];
    // CSRF and Origin first: nothing is read further or written.
    const noToken = await put(editor, url, next, { 'x-csrf-token': '', 'if-match': etag });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.headers['content-type']).toContain('application/json');
    const crossSite = await put(editor, url, next, { origin: 'https://evil.example', 'if-match': etag });
    expect(crossSite.statusCode).toBe(403);
    expect((await put(viewer, url, next, { 'if-match': etag })).statusCode).toBe(403);
    expect((await put(outsider, url, next, { 'if-match': etag })).statusCode).toBe(404);
    expect(await storedShapes()).toHaveLength(1);

    // The API's validation and messages, item by item.
    const bad = [{ referenceType: 'flat', referenceId: first.id, shape: '' }];
    const mine = await put(editor, url, bad, { 'if-match': etag });
    const api = await t.request({ method: 'PUT', url: apiShapes(), key: a.key, body: bad });
    expect(mine.statusCode).toBe(422);
    expect(api.statusCode).toBe(422);
    expect(mine.json()).toEqual(api.json());
    expect(mine.json().message).toContain('[0].referenceType');
    const outside = [{ referenceType: 'apartment', referenceId: first.id, shape: 'M0 0H1700V10H0Z' }];
    const outsideMine = await put(editor, url, outside, { 'if-match': etag });
    expect(outsideMine.statusCode).toBe(422);
    expect(outsideMine.json()).toEqual((await t.request({ method: 'PUT', url: apiShapes(), key: a.key, body: outside })).json());
    const foreign = [{ referenceType: 'apartment', referenceId: '00000000-0000-7000-8000-000000000001', shape: 'M0 0H10V10H0Z' }];
    const foreignMine = await put(editor, url, foreign, { 'if-match': etag });
    expect(foreignMine.statusCode).toBe(422);
    expect(foreignMine.json()).toEqual((await t.request({ method: 'PUT', url: apiShapes(), key: a.key, body: foreign })).json());
    const notArray = await put(editor, url, { shapes: next }, { 'if-match': etag });
    expect(notArray.statusCode).toBe(400);
    expect(notArray.json().message).toBe('The request body must be a JSON array');
    const broken = await t.app.inject({
      method: 'PUT',
      url,
      headers: { cookie: `pps_session=${encodeURIComponent(editor.cookie)}`, origin: ORIGIN, 'content-type': 'application/json', 'x-csrf-token': editor.csrf },
      payload: '[{',
    });
    expect(broken.statusCode).toBe(400);
    expect(await storedShapes()).toHaveLength(1);

    const saved = await put(editor, url, next, { 'if-match': etag });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().shapes).toHaveLength(2);
    const newEtag = saved.headers.etag as string;
    expect(newEtag).not.toBe(etag);
    expect(newEtag).toBe((await t.request({ method: 'GET', url: apiShapes(), key: a.key })).headers.etag);
    expect((await storedShapes()).map((s) => s.shape)).toEqual(['M100 100H300V250H100Z', 'M400 100H600V250H400Z']);
    // Someone else saved since: 412, nothing stored.
    const stale = await put(editor, url, [next[0]], { 'if-match': etag });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().message).toMatch(/If-Match/);
    expect(await storedShapes()).toHaveLength(2);
    // The admin role writes too.
    const admin = await joinAs(t, a.id, 'admin@shapes-a.example', 'admin');
    expect((await put(admin, url, next, { 'if-match': newEtag })).statusCode).toBe(200);
  });

  it('the no-script SVG import: the report first (matched, unmatched, duplicates), nothing saved; then saving with the version seen', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600">
      <path id="CRM-S1" d="M10 10H110V60H10Z"/>
      <rect data-name="S 2" x="200" y="0" width="50" height="50"/>
      <path id="Nobody" d="M0 0H1V1Z"/>
      <path id="S_2" d="M300 300H310V310Z"/>
    </svg>`;
    const screen = await editor.get(screenUrl());
    const version = attribute(screen.body, 'data-shapes-etag')!;
    const before = await storedShapes();

    const noCsrf = await postMultipart(editor, `${screenUrl()}/import`, { version }, { name: 'plan.svg', text: svg });
    expect(noCsrf.statusCode).toBe(403);
    expect((await postMultipart(viewer, `${screenUrl()}/import`, { _csrf: viewer.csrf, version }, { name: 'plan.svg', text: svg })).statusCode).toBe(403);
    expect((await postMultipart(outsider, `${screenUrl()}/import`, { _csrf: outsider.csrf, version }, { name: 'plan.svg', text: svg })).statusCode).toBe(404);
    const empty = await postMultipart(editor, `${screenUrl()}/import`, { _csrf: editor.csrf, version }, { name: 'empty.svg', text: '' });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain('Choose an SVG file to import.');

    const report = await postMultipart(editor, `${screenUrl()}/import`, { _csrf: editor.csrf, version }, { name: 'plan.svg', text: svg });
    expect(report.statusCode).toBe(200);
    expect(report.body).toContain('Matched (2)');
    expect(report.body).toContain('CRM-S1 → S 1');
    expect(report.body).toContain('S 2 → S 2');
    expect(report.body).toMatch(/Unmatched \(1\)[\s\S]*<li>Nobody<\/li>/);
    expect(report.body).toMatch(/Duplicates \(1\)[\s\S]*<li>S_2 \(the first shape of this home is used\)<\/li>/);
    expect(await storedShapes()).toEqual(before);

    const confirmUrl = `${screenUrl()}/import/confirm`;
    const hidden = (name: string) => attribute(report.body.slice(report.body.indexOf('aria-label="Confirm the import"')), `name="${name}" value`);
    expect(hidden('version')).toBe(version);
    const carried = hidden('svg')!;
    expect(carried).toContain('CRM-S1');
    // A save made after the report was shown: 412, the report again against the current shapes, nothing imported.
    await call(t, 'PUT', apiShapes(), a.key, [{ referenceType: 'building', referenceId: building, shape: 'M0 0H1600V1200H0Z' }], 200);
    const stale = await postMultipart(editor, confirmUrl, { _csrf: editor.csrf, version, svg: carried });
    expect(stale.statusCode).toBe(412);
    expect(stale.body).toContain('Someone saved shapes on this frame since you checked the file');
    expect(await storedShapes()).toHaveLength(1);
    const current = attribute(stale.body.slice(stale.body.indexOf('aria-label="Confirm the import"')), 'name="version" value')!;
    expect(current).not.toBe(version);

    const done = await postMultipart(editor, confirmUrl, { _csrf: editor.csrf, version: current, svg: carried });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`${screenUrl()}?done=imported`);
    expect((await storedShapes()).map((s) => [s.referenceId, s.shape])).toEqual([
      [building, 'M0 0H1600V1200H0Z'],
      [first.id, 'M20 20H220V120H20Z'],
      [second.id, 'M400 0H500V100H400Z'],
    ]);
    expect((await editor.get(`${screenUrl()}?done=imported`)).body).toContain('The shapes from the SVG file are saved.');
  });

  it('an import larger than 10 MB is refused with 413 and nothing is read', async () => {
    const big = `<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(10 * 1024 * 1024 + 300 * 1024)}</svg>`;
    const res: LightMyRequestResponse = await postMultipart(
      editor,
      `${screenUrl()}/import`,
      { _csrf: editor.csrf, version: '' },
      { name: 'big.svg', text: big },
    );
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
