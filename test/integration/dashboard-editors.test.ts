import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { type DashboardUser, ORIGIN, formBody, joinAs } from '../helpers/dashboard.js';

type Settings = { enabled: boolean; locale: string; contact: Record<string, string> | null; embedOrigins: string[]; privacyPolicyUrl: string | null };
type Frame = { id: string; angle: number; assetId: string };
type Nav = { id: string; images: Frame[]; options: Record<string, unknown> & { customTheme: Record<string, string> } };

/** The dashboard's navigators and page screens (issue 35) through app.inject (both engines). */
describe('dashboard: navigators and the page', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let admin: DashboardUser;
  let editor: DashboardUser;
  let viewer: DashboardUser;
  let outsider: DashboardUser;
  let base: string;
  let estate: { id: string; slug: string };
  let building: string;
  let nav: string;
  let asset: string;
  let bNav: string;
  let bEstate: string;

  const settings = async () => (await call(t, 'GET', `/api/v1/estates/${estate.id}/page`, a.key, undefined, 200)) as Settings;
  const navigator = async () => (await call(t, 'GET', `/api/v1/navigator/${nav}`, a.key, undefined, 200)) as Nav;
  const pageForm = (over: Record<string, string> = {}) => ({
    locale: 'de-DE',
    navigatorId: '',
    showApartments: 'true',
    showInquiryForm: 'true',
    privacyPolicyUrl: 'https://lindenpark.example/privacy',
    embedOrigins: 'https://www.lindenpark.example\nhttps://agency.example',
    'contact.name': 'Sales office',
    'contact.phone': '+49 30 123456',
    'contact.email': 'sales@lindenpark.example',
    'contact.address': 'Lindenstraße 1, Berlin',
    'contact.openingHours': 'Mon–Fri 9:00–17:00',
    ...over,
  });
  const optionsForm = (over: Record<string, string> = {}) => ({
    navigatorName: 'Main view',
    sourceWidth: '1600',
    sourceHeight: '1200',
    overlayWidth: '1600',
    overlayHeight: '1200',
    startingAngle: '90',
    minimalSidebarWidthPercent: '25',
    northFrameIndex: '0',
    hideFilters: 'price, floor',
    hideColumns: '',
    isLoopable: 'true',
    compassEnabled: 'true',
    ...over,
  });
  const upload = async (user: DashboardUser, fields: Record<string, string>, file?: Buffer) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (file) form.append('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), 'view.png');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    return t.app.inject({
      method: 'POST',
      url: `${base}/navigators/${nav}/frames/upload`,
      headers: { cookie: `pps_session=${encodeURIComponent(user.cookie)}`, origin: ORIGIN, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Editors A');
    b = await t.createOrg('Editors B');
    admin = await joinAs(t, a.id, 'admin@editors.example', 'admin');
    editor = await joinAs(t, a.id, 'editor@editors.example', 'editor');
    viewer = await joinAs(t, a.id, 'viewer@editors.example', 'viewer');
    outsider = await joinAs(t, b.id, 'admin@editors-b.example', 'admin');
    base = `/dashboard/o/${a.id}`;
    const setup = await call(t, 'POST', '/api/v1/estate/setup', a.key, { name: 'Lindenpark', buildingName: 'Tower L' }, 201);
    estate = setup.estate;
    building = setup.building.id;
    nav = setup.navigator.id;
    asset = (await insertAssetRow(t.db, a.id, { width: 1600, height: 1200 })).id;
    const bSetup = await call(t, 'POST', '/api/v1/estate/setup', b.key, { name: 'Elsewhere' }, 201);
    bNav = bSetup.navigator.id;
    bEstate = bSetup.estate.id;
  });
  afterAll(() => t?.close());

  it('navigators: the list links each navigator; its screen shows every option with help, the theme with colour pickers and a preview', async () => {
    const list = await viewer.get(`${base}/navigators`);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`href="${base}/navigators/${nav}"`);
    expect(list.body).not.toContain('Elsewhere');
    expect(list.body).not.toContain('Create a navigator');
    const screen = await editor.get(`${base}/navigators/${nav}`);
    expect(screen.statusCode).toBe(200);
    for (const label of [
      'Starting angle (°)',
      'North frame',
      'Overlay width (px)',
      'Rotation loops from the last frame back to the first',
      'Hidden list filters',
    ]) {
      expect(screen.body).toContain(label);
    }
    expect(screen.body).toContain('type="color"');
    expect(screen.body).toContain('Available: fill');
    expect(screen.body).toContain('Preview of the status colours');
    expect(screen.body).toContain('No frames yet.');
    expect(screen.body).toContain(`href="${base}/navigators" aria-current="page"`);
  });

  it('frames: added from an uploaded image and by a new upload, angle changed, a taken or bad angle refused next to its field, deleted', async () => {
    const bad = await editor.post(`${base}/navigators/${nav}/frames`, { assetId: asset, angle: '360' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="field-angle-error"');
    expect((await navigator()).images).toEqual([]);

    const added = await editor.post(`${base}/navigators/${nav}/frames`, { assetId: asset, angle: '0' });
    expect(added.statusCode, added.body).toBe(303);
    const [first] = (await navigator()).images;
    expect(first).toMatchObject({ angle: 0, assetId: asset });
    const taken = await editor.post(`${base}/navigators/${nav}/frames`, { assetId: asset, angle: '0' });
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain('Another frame has this angle');

    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#88aacc' } })
      .png()
      .toBuffer();
    const noFile = await upload(editor, { _csrf: editor.csrf, uploadAngle: '90' });
    expect(noFile.statusCode).toBe(422);
    expect(noFile.body).toContain('id="field-file-error"');
    const noToken = await upload(editor, { uploadAngle: '90' }, png);
    expect(noToken.statusCode).toBe(403);
    expect((await navigator()).images.length).toBe(1);
    const uploaded = await upload(editor, { _csrf: editor.csrf, uploadAngle: '90' }, png);
    expect(uploaded.statusCode, uploaded.body).toBe(303);
    const frames = (await navigator()).images;
    expect(frames.map((f) => f.angle)).toEqual([0, 90]);
    // A wrong aspect ratio is refused and keeps no upload.
    const square = await sharp({ create: { width: 500, height: 500, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const assetsBefore = (await call(t, 'GET', '/api/v1/asset', a.key, undefined, 200)).length;
    const wrong = await upload(editor, { _csrf: editor.csrf, uploadAngle: '180' }, square);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.body).toContain('id="field-file-error"');
    expect((await call(t, 'GET', '/api/v1/asset', a.key, undefined, 200)).length).toBe(assetsBefore);

    const screen = await editor.get(`${base}/navigators/${nav}`);
    expect(screen.body).toContain(`href="${base}/navigators/${nav}/frames/${first!.id}/shapes"`);
    expect((await editor.get(`${base}/navigators/${nav}/frames/${first!.id}/shapes`)).statusCode).toBe(200);

    const moved = await editor.post(`${base}/navigators/${nav}/frames/${first!.id}`, { angle: '270', assetId: asset });
    expect(moved.statusCode, moved.body).toBe(303);
    expect((await navigator()).images.map((f) => f.angle)).toEqual([90, 270]);
    const clash = await editor.post(`${base}/navigators/${nav}/frames/${first!.id}`, { angle: '90', assetId: asset });
    expect(clash.statusCode).toBe(409);
    expect(clash.body).toContain(`id="field-angle-${first!.id}-error"`);

    const second = (await navigator()).images.find((f) => f.angle === 90)!;
    const deleted = await editor.post(`${base}/navigators/${nav}/frames/${second.id}/delete`, {});
    expect(deleted.statusCode).toBe(303);
    expect((await navigator()).images.map((f) => f.angle)).toEqual([270]);
  });

  it('options and theme: saved through the API’s service; bad input next to its field; a stale form is 412 explained', async () => {
    const before = await navigator();
    const bad = await editor.post(`${base}/navigators/${nav}/options`, optionsForm({ startingAngle: 'north' }));
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="field-startingAngle-error"');
    expect(bad.body).toContain('value="north"');
    const outOfRange = await editor.post(`${base}/navigators/${nav}/options`, optionsForm({ startingAngle: '400' }));
    expect(outOfRange.statusCode).toBe(422);
    expect(outOfRange.body).toContain('id="field-startingAngle-error"');
    expect((await navigator()).options).toEqual(before.options);

    const saved = await editor.post(`${base}/navigators/${nav}/options`, optionsForm());
    expect(saved.statusCode, saved.body).toBe(303);
    const after = await navigator();
    expect(after.options).toMatchObject({
      navigatorName: 'Main view',
      startingAngle: 90,
      hideFilters: ['price', 'floor'],
      hideColumns: [],
      isLoopable: true,
      compassEnabled: true,
      canFreelyRotate: false,
    });

    const colour = await editor.post(`${base}/navigators/${nav}/theme`, { '--apartment-sold-fill': 'not-a-colour' });
    expect(colour.statusCode).toBe(422);
    expect(colour.body).toContain('id="theme-apartment-sold-fill-error"');
    const theme = await editor.post(`${base}/navigators/${nav}/theme`, {
      fontFamily: 'serif',
      '--apartment-sold-fill': 'rgb(200, 0, 0)',
      // The picker moved, the text did not: the picker's colour.
      '--primary': '',
      '--primary:picker': '#336699',
      '--primary:was': '#000000',
    });
    expect(theme.statusCode, theme.body).toBe(303);
    expect((await navigator()).options.customTheme).toMatchObject({ fontFamily: 'serif', '--apartment-sold-fill': '#c80000', '--primary': '#336699' });
    const page = await editor.get(`${base}/navigators/${nav}`);
    expect(page.body).toContain('fill="#c80000"');

    // A form opened before someone else's change.
    const etag = /name="etag" value="([^"]+)"/.exec(page.body)![1]!;
    await call(t, 'PATCH', `/api/v1/navigator/${nav}`, a.key, { options: { startingAngle: 180 } }, 200);
    const stale = await editor.post(`${base}/navigators/${nav}/options`, { ...optionsForm({ startingAngle: '45' }), etag: etag.replace(/&quot;/g, '"') });
    expect(stale.statusCode).toBe(412);
    expect(stale.body).toContain('Someone changed this navigator since you opened it');
    expect((await navigator()).options.startingAngle).toBe(180);
  });

  it('navigators: a viewer cannot change one; another organization’s is 404; a nested one needs a building', async () => {
    expect((await viewer.post(`${base}/navigators/${nav}/options`, optionsForm({ startingAngle: '10' }))).statusCode).toBe(403);
    expect((await viewer.post(`${base}/navigators/${nav}/frames`, { assetId: asset, angle: '45' })).statusCode).toBe(403);
    expect((await navigator()).options.startingAngle).toBe(180);
    expect((await editor.get(`${base}/navigators/${bNav}`)).statusCode).toBe(404);
    expect((await editor.post(`${base}/navigators/${bNav}/options`, optionsForm())).statusCode).toBe(404);
    expect((await editor.get(`${base}/navigators?estateId=${bEstate}`)).statusCode).toBe(404);
    expect((await outsider.get(`/dashboard/o/${b.id}/navigators/${nav}`)).statusCode).toBe(404);

    const noBuilding = await editor.post(`${base}/navigators?estateId=${estate.id}`, { name: 'Tower view' });
    expect(noBuilding.statusCode).toBe(422);
    expect(noBuilding.body).toContain('id="field-buildingId-error"');
    const nested = await editor.post(`${base}/navigators?estateId=${estate.id}`, { name: 'Tower view', buildingId: building });
    expect(nested.statusCode, nested.body).toBe(303);
    const twice = await editor.post(`${base}/navigators?estateId=${estate.id}`, { name: 'Again', buildingId: building });
    expect(twice.statusCode).toBe(409);
    expect(twice.body).toContain('This building already has its navigator.');
  });

  it('the page: settings saved through the API’s service; bad input shown next to each field, nothing written', async () => {
    const first = await editor.get(`${base}/page`);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(`${base}/page/${estate.id}`);
    const screen = await editor.get(`${base}/page/${estate.id}`);
    expect(screen.statusCode).toBe(200);
    expect(screen.body).toContain('data-page-status="unpublished"');
    expect(screen.body).toContain('An admin publishes');
    const before = await settings();

    for (const [field, value, id] of [
      ['locale', 'not a locale!', 'field-locale-error'],
      ['contact.email', 'nobody', 'field-contact.email-error'],
      ['contact.phone', 'call us', 'field-contact.phone-error'],
      ['privacyPolicyUrl', 'ftp://x', 'field-privacyPolicyUrl-error'],
      ['embedOrigins', 'https://example.com/path', 'field-embedOrigins-error'],
    ] as const) {
      const res = await editor.post(`${base}/page/${estate.id}`, pageForm({ [field]: value }));
      expect(res.statusCode, `${field}: ${res.body.slice(0, 200)}`).toBe(422);
      expect(res.body).toContain(`id="${id}"`);
      expect(res.body).not.toContain('Validation failed');
    }
    expect(await settings()).toEqual(before);

    const saved = await editor.post(`${base}/page/${estate.id}`, pageForm());
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`${base}/page/${estate.id}?done=saved`);
    expect(await settings()).toMatchObject({
      enabled: false,
      locale: 'de-DE',
      contact: { name: 'Sales office', phone: '+49 30 123456', email: 'sales@lindenpark.example', openingHours: 'Mon–Fri 9:00–17:00' },
      embedOrigins: ['https://www.lindenpark.example', 'https://agency.example'],
      privacyPolicyUrl: 'https://lindenpark.example/privacy',
    });
    expect((await viewer.post(`${base}/page/${estate.id}`, pageForm({ locale: 'fr' }))).statusCode).toBe(403);
    expect((await settings()).locale).toBe('de-DE');
  });

  it('the page: a preview link; publishing lists what is missing first, is for admins only, and opens the public page', async () => {
    const preview = await editor.post(`${base}/page/${estate.id}/preview`, {});
    expect(preview.statusCode).toBe(200);
    const link = /href="([^"]+\?preview=[^"]+)"/.exec(preview.body)![1]!.replace(/&amp;/g, '&');
    expect((await t.app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/p/${estate.slug}` })).statusCode).toBe(404);

    expect((await editor.get(`${base}/page/${estate.id}/publish`)).statusCode).toBe(403);
    expect((await editor.post(`${base}/page/${estate.id}/publish`, {})).statusCode).toBe(403);
    expect((await settings()).enabled).toBe(false);

    const checklist = await admin.get(`${base}/page/${estate.id}/publish`);
    expect(checklist.statusCode).toBe(200);
    expect(checklist.body).toContain('data-missing="apartments"');
    expect(checklist.body).toContain('data-missing="shapes"');
    expect(checklist.body).not.toContain('data-missing="contact"');
    expect(checklist.body).toContain('Publish anyway');
    expect(checklist.body).toContain('anyone with the address can open it');

    const published = await admin.post(`${base}/page/${estate.id}/publish`, {});
    expect(published.statusCode).toBe(303);
    expect(published.headers.location).toBe(`${base}/page/${estate.id}?done=published`);
    expect((await settings()).enabled).toBe(true);
    const after = await admin.get(published.headers.location as string);
    expect(after.body).toContain('data-page-status="published"');
    expect(after.body).toContain(`/p/${estate.slug}"`);
    expect((await t.app.inject({ method: 'GET', url: `/p/${estate.slug}` })).statusCode).toBe(200);

    expect((await editor.post(`${base}/page/${estate.id}/unpublish`, {})).statusCode).toBe(403);
    expect((await settings()).enabled).toBe(true);
    const unpublished = await admin.post(`${base}/page/${estate.id}/unpublish`, {});
    expect(unpublished.statusCode).toBe(303);
    expect((await settings()).enabled).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: `/p/${estate.slug}` })).statusCode).toBe(404);
  });

  it('the page: another organization’s estate is 404; without the CSRF token 403 and nothing written', async () => {
    expect((await admin.get(`${base}/page/${bEstate}`)).statusCode).toBe(404);
    expect((await admin.post(`${base}/page/${bEstate}`, pageForm())).statusCode).toBe(404);
    expect((await admin.post(`${base}/page/${bEstate}/publish`, {})).statusCode).toBe(404);
    expect((await call(t, 'GET', `/api/v1/estates/${bEstate}/page`, b.key, undefined, 200)).enabled).toBe(false);
    const noToken = await t.app.inject({
      method: 'POST',
      url: `${base}/page/${estate.id}/publish`,
      headers: { cookie: `pps_session=${encodeURIComponent(admin.cookie)}`, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: formBody({}),
    });
    expect(noToken.statusCode).toBe(403);
    expect((await settings()).enabled).toBe(false);
  });
});
