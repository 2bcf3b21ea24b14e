import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type DashboardUser, ORIGIN, joinAs } from '../helpers/dashboard.js';

type Asset = { id: string; name: string; mimeType: string };
type Item = { id: string; assetId: string; caption: string | null };

/** The assets and add-ons screens (issue 35) through app.inject: uploads, usage, delete, the four add-ons, roles, tenancy (both engines). */
describe('dashboard assets and add-ons', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let editor: DashboardUser;
  let viewer: DashboardUser;
  let base: string;
  let estateId: string;
  let otherEstateId: string;
  let otherAssetId: string;
  let jpeg: Buffer;
  let png: Buffer;
  const images: Asset[] = [];
  let pdf: Asset;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, key = a.key) => t.request({ method, url, key, body });
  const assetsOf = async (key = a.key) => (await api('GET', '/api/v1/asset?limit=100', undefined, key)).json() as Asset[];
  const gallery = async () => (await api('GET', `/api/v1/estates/${estateId}/gallery`)).json() as { enabled: boolean; items: Item[]; sections: unknown[] };

  type Part = { name: string; filename?: string; type?: string; body: Buffer | string };
  const multipart = (parts: Part[]) => {
    const boundary = 'dashboard-assets-boundary';
    const chunks: Buffer[] = [];
    for (const p of parts) {
      const disposition = p.filename === undefined ? `form-data; name="${p.name}"` : `form-data; name="${p.name}"; filename="${p.filename}"`;
      const type = p.filename === undefined ? '' : `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n`;
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(p.body), Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  };
  const upload = (user: DashboardUser, parts: Part[], extra: Record<string, string> = {}, orgId = a.id) => {
    const { payload, headers } = multipart(parts);
    return t.app.inject({
      method: 'POST',
      url: `/dashboard/o/${orgId}/assets/upload`,
      headers: { ...headers, cookie: `pps_session=${encodeURIComponent(user.cookie)}`, origin: ORIGIN, ...extra },
      payload,
    });
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Assets A');
    b = await t.createOrg('Assets B');
    editor = await joinAs(t, a.id, 'editor@assets.example', 'editor');
    viewer = await joinAs(t, a.id, 'viewer@assets.example', 'viewer');
    base = `/dashboard/o/${a.id}`;
    jpeg = await sharp({ create: { width: 700, height: 500, channels: 3, background: { r: 30, g: 120, b: 200 } } })
      .jpeg()
      .toBuffer();
    png = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 80, b: 40 } } })
      .png()
      .toBuffer();
    const made = await editor.post(`${base}/estates`, { name: 'Harbour View', buildingName: '', slug: '' });
    estateId = /\/estates\/([0-9a-f-]{36})/.exec(made.headers.location as string)![1]!;
    otherEstateId = (await api('POST', '/api/v1/estate/setup', { name: 'Elsewhere' }, b.key)).json().estate.id;
    const other = multipart([{ name: 'file', filename: 'theirs.png', type: 'image/png', body: png }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/asset/upload',
      headers: { ...other.headers, authorization: `Bearer ${b.key}` },
      payload: other.payload,
    });
    otherAssetId = res.json().id;
  });
  afterAll(() => t?.close());

  it('uploads several files at once without JavaScript (303), each through the API’s upload and sniffing', async () => {
    const res = await upload(editor, [
      { name: '_csrf', body: editor.csrf },
      { name: 'files', filename: 'front.jpg', type: 'image/jpeg', body: jpeg },
      { name: 'files', filename: 'garden.png', type: 'application/octet-stream', body: png },
      { name: 'files', filename: 'brochure.pdf', type: 'application/pdf', body: '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n' },
    ]);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${base}/assets?done=uploaded`);
    const list = await assetsOf();
    const byName = new Map(list.map((x) => [x.name, x]));
    images.push(byName.get('front.jpg')!, byName.get('garden.png')!);
    pdf = byName.get('brochure.pdf')!;
    expect(images[0]!.mimeType).toBe('image/jpeg');
    // Detected from the content, as the API does: the declared octet-stream is not kept.
    expect(images[1]!.mimeType).toBe('image/png');
    expect(pdf.mimeType).toBe('application/pdf');

    const page = await editor.get(`${base}/assets?done=uploaded`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('The files are uploaded.');
    expect(page.body).toContain('front.jpg');
    expect(page.body).toContain('PDF document');
    // The thumbnail is the smallest variant of the image.
    expect(page.body).toMatch(new RegExp(`<img class="thumb" src="[^"]*/files/${a.id}/${images[0]!.id}-w320"`));
    expect(page.body).toContain('Not used');
    expect(page.body).toMatch(/<script src="\/p\/_assets\/dashboard-islands\.[^"]+\.js" defer/);
  });

  it('the island’s upload answers with data; a refused file is named with the reason, the others kept', async () => {
    const before = (await assetsOf()).length;
    const ok = await upload(editor, [{ name: 'files', filename: 'side.png', type: 'image/png', body: png }], {
      'x-requested-with': 'upload-island',
      'x-csrf-token': editor.csrf,
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().uploaded.map((x: { name: string }) => x.name)).toEqual(['side.png']);

    const mixed = await upload(editor, [
      { name: '_csrf', body: editor.csrf },
      { name: 'files', filename: 'empty.jpg', type: 'image/jpeg', body: '' },
      { name: 'files', filename: 'kept.png', type: 'image/png', body: png },
    ]);
    expect(mixed.statusCode).toBe(422);
    expect(mixed.body).toContain('id="field-files-error"');
    expect(mixed.body).toContain('empty.jpg is not uploaded: File is empty (0 bytes)');
    expect(mixed.body).toContain('kept.png is uploaded.');
    const names = (await assetsOf()).map((x) => x.name);
    expect(names).toContain('kept.png');
    expect(names).not.toContain('empty.jpg');
    expect((await assetsOf()).length).toBe(before + 2);

    const nothing = await upload(editor, [
      { name: '_csrf', body: editor.csrf },
      { name: 'files', filename: '', type: 'application/octet-stream', body: '' },
    ]);
    expect(nothing.statusCode).toBe(422);
    expect(nothing.body).toContain('Choose the files to upload.');
    expect((await assetsOf()).length).toBe(before + 2);
  });

  it('limits: a file over 20 MB is refused by name (413); past 20 files the rest are refused', async () => {
    const before = (await assetsOf()).length;
    const big = await upload(editor, [
      { name: '_csrf', body: editor.csrf },
      { name: 'files', filename: 'huge.bin', type: 'application/octet-stream', body: Buffer.alloc(20 * 1024 * 1024 + 1, 7) },
      { name: 'files', filename: 'after.txt', type: 'text/plain', body: 'kept' },
    ]);
    expect(big.statusCode).toBe(413);
    expect(big.body).toContain('huge.bin is not uploaded: It is larger than 20 MB, the upload limit. after.txt is uploaded.');
    expect((await assetsOf()).length).toBe(before + 1);
    await api('DELETE', `/api/v1/asset/${(await assetsOf()).find((x) => x.name === 'after.txt')!.id}`);

    const many = await upload(editor, [
      { name: '_csrf', body: editor.csrf },
      ...Array.from({ length: 21 }, (_, i) => ({ name: 'files', filename: `note-${i}.txt`, type: 'text/plain', body: `note ${i}` })),
    ]);
    expect(many.statusCode).toBe(413);
    expect(many.body).toContain('At most 20 files at once; the rest were not uploaded.');
    const names = (await assetsOf()).map((x) => x.name);
    expect(names).toContain('note-19.txt');
    expect(names).not.toContain('note-20.txt');
    // Not to clutter the pickers below.
    for (const asset of await assetsOf()) if (asset.name.startsWith('note-')) await api('DELETE', `/api/v1/asset/${asset.id}`);
  });

  it('an upload without the CSRF token, by a viewer or signed out is refused and nothing is written', async () => {
    const before = (await assetsOf()).length;
    const noToken = await upload(editor, [{ name: 'files', filename: 'x.png', type: 'image/png', body: png }]);
    expect(noToken.statusCode).toBe(403);
    const wrongToken = await upload(editor, [
      { name: '_csrf', body: 'not-the-token' },
      { name: 'files', filename: 'x.png', type: 'image/png', body: png },
    ]);
    expect(wrongToken.statusCode).toBe(403);
    const byViewer = await upload(viewer, [
      { name: '_csrf', body: viewer.csrf },
      { name: 'files', filename: 'x.png', type: 'image/png', body: png },
    ]);
    expect(byViewer.statusCode).toBe(403);
    const { payload, headers } = multipart([{ name: 'files', filename: 'x.png', type: 'image/png', body: png }]);
    const signedOut = await t.app.inject({ method: 'POST', url: `${base}/assets/upload`, headers: { ...headers, origin: ORIGIN }, payload });
    expect(signedOut.statusCode).toBe(401);
    const crossSite = await upload(
      editor,
      [
        { name: '_csrf', body: editor.csrf },
        { name: 'files', filename: 'x.png', type: 'image/png', body: png },
      ],
      { origin: 'https://evil.example' },
    );
    expect(crossSite.statusCode).toBe(403);
    expect((await assetsOf()).length).toBe(before);
    // A viewer sees the list but no upload form or delete buttons.
    const page = await viewer.get(`${base}/assets`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('front.jpg');
    expect(page.body).not.toContain('Upload files');
    expect(page.body).not.toContain('/delete"');
  });

  it('add-ons: turns the gallery on, adds the images, orders them by Move up/down', async () => {
    const overview = await editor.get(`${base}/addons`);
    expect(overview.statusCode).toBe(200);
    expect(overview.body).toContain('Harbour View');
    expect(overview.body).toContain('Off<span class="visually-hidden"> (edit the gallery of Harbour View)</span>');
    const on = await editor.post(`${base}/addons/${estateId}/gallery/enable`, { enabled: 'true' });
    expect(on.statusCode).toBe(303);
    expect(on.headers.location).toBe(`${base}/addons/${estateId}/gallery?done=enabled`);
    expect((await gallery()).enabled).toBe(true);

    const none = await editor.post(`${base}/addons/${estateId}/gallery/save`, { what: 'item', caption: 'x' });
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('id="new-item-assetId-error"');
    expect(none.body).toContain('Choose at least one file from the list.');
    const notMedia = await editor.post(`${base}/addons/${estateId}/gallery/save`, { what: 'item', assetId: [images[0]!.id, pdf.id] });
    expect(notMedia.statusCode).toBe(422);
    expect(notMedia.body).toContain('Choose images or videos from the list.');
    const theirs = await editor.post(`${base}/addons/${estateId}/gallery/save`, { what: 'item', assetId: otherAssetId });
    expect(theirs.statusCode).toBe(422);
    expect((await gallery()).items).toEqual([]);

    const added = await editor.post(`${base}/addons/${estateId}/gallery/save`, { what: 'item', assetId: images.map((x) => x.id) });
    expect(added.statusCode).toBe(303);
    let items = (await gallery()).items;
    expect(items.map((x) => x.assetId)).toEqual(images.map((x) => x.id));

    const page = await editor.get(`${base}/addons/${estateId}/gallery`);
    expect(page.body).toContain('Move up<span class="visually-hidden"> garden.png</span>');
    expect(page.body).toContain('data-order-list data-order-set="items:"');

    const moved = await editor.post(`${base}/addons/${estateId}/gallery/move`, { set: 'items:', id: items[1]!.id, direction: 'up' });
    expect(moved.statusCode).toBe(303);
    expect((await gallery()).items.map((x) => x.assetId)).toEqual([images[1]!.id, images[0]!.id]);
    // The target position, as a form would send it (303), and as the drag island sends it (204: it reloads itself).
    const dragged = await editor.post(`${base}/addons/${estateId}/gallery/move`, { set: 'items:', id: items[1]!.id, to: '1' });
    expect(dragged.statusCode).toBe(303);
    items = (await gallery()).items;
    expect(items.map((x) => x.assetId)).toEqual(images.map((x) => x.id));
    const island = { 'x-requested-with': 'order-island' };
    const byIsland = await editor.post(`${base}/addons/${estateId}/gallery/move`, { set: 'items:', id: items[0]!.id, to: '1' }, island);
    expect(byIsland.statusCode).toBe(204);
    expect(byIsland.body).toBe('');
    expect((await gallery()).items.map((x) => x.assetId)).toEqual([images[1]!.id, images[0]!.id]);
    expect((await editor.post(`${base}/addons/${estateId}/gallery/move`, { set: 'items:', id: items[0]!.id, to: '0' }, island)).statusCode).toBe(204);
    items = (await gallery()).items;
    expect(items.map((x) => x.assetId)).toEqual(images.map((x) => x.id));

    // The assets screen now names the use.
    const assets = await editor.get(`${base}/assets`);
    expect(assets.body).toContain('Harbour View: 1 gallery item');
  });

  it('a stale form is 412 (“someone changed this”) and writes nothing; a current one saves', async () => {
    // The images' variants may still be being made (background jobs): they do not move the form's version
    // (dashboard-addon-versions.test.ts), so the only change between the forms is the one made here.
    const items = (await gallery()).items;
    const page = await editor.get(`${base}/addons/${estateId}/gallery`);
    const version = /name="version" value="(\d+)"/.exec(page.body)![1]!;
    await api('PUT', `/api/v1/estates/${estateId}/gallery/items/order`, { orderedIds: [items[1]!.id, items[0]!.id] });
    const stale = await editor.post(`${base}/addons/${estateId}/gallery/save`, { what: 'item', id: items[0]!.id, caption: 'Front', version });
    expect(stale.statusCode).toBe(412);
    expect(stale.body).toContain('Someone changed this since you opened it');
    expect((await gallery()).items.find((x) => x.id === items[0]!.id)!.caption).toBeNull();
    const fresh = /name="version" value="(\d+)"/.exec((await editor.get(`${base}/addons/${estateId}/gallery`)).body)![1]!;
    const saved = await editor.post(`${base}/addons/${estateId}/gallery/save`, { what: 'item', id: items[0]!.id, caption: 'Front', version: fresh });
    expect(saved.statusCode).toBe(303);
    expect((await gallery()).items.find((x) => x.id === items[0]!.id)!.caption).toBe('Front');
    const long = await editor.post(`${base}/addons/${estateId}/gallery/save`, {
      what: 'item',
      id: items[0]!.id,
      caption: 'x'.repeat(201),
      version: String(Number(fresh) + 1),
    });
    expect(long.statusCode).toBe(422);
    expect(long.body).toContain(`id="item-${items[0]!.id}-caption-error"`);
  });

  it('investment HTML is sanitised exactly as the API does, through the same service', async () => {
    const html =
      '<h2>Returns</h2><p onclick="x()">Yield <script>alert(1)</script><a href="javascript:alert(1)">here</a> <strong>6%</strong></p><iframe src="x"></iframe>';
    const empty = await editor.post(`${base}/addons/${estateId}/investment/save`, { what: 'section', title: ' ', description: html });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain('id="new-section-title-error"');
    const made = await editor.post(`${base}/addons/${estateId}/investment/save`, { what: 'section', title: 'Returns', description: html });
    expect(made.statusCode).toBe(303);
    const viaApi = (await api('POST', `/api/v1/estates/${estateId}/investment/sections`, { title: 'Via API', description: html })).json();
    const doc = (await api('GET', `/api/v1/estates/${estateId}/investment`)).json();
    const mine = doc.sections.find((s: { title: string }) => s.title === 'Returns');
    expect(mine.description).toBe(viaApi.description);
    expect(mine.description).not.toContain('script');
    expect(mine.description).not.toContain('javascript:');
    expect(mine.description).toContain('<strong>6%</strong>');

    const file = await editor.post(`${base}/addons/${estateId}/investment/save`, { what: 'file', sectionId: mine.id, assetId: pdf.id, label: 'Prospectus' });
    expect(file.statusCode).toBe(303);
    const after = (await api('GET', `/api/v1/estates/${estateId}/investment`)).json();
    expect(after.sections[0].files.map((f: { label: string }) => f.label)).toEqual(['Prospectus']);
    const moved = await editor.post(`${base}/addons/${estateId}/investment/move`, { set: 'sections', id: viaApi.id, direction: 'up' });
    expect(moved.statusCode).toBe(303);
    expect((await api('GET', `/api/v1/estates/${estateId}/investment`)).json().sections.map((s: { title: string }) => s.title)).toEqual(['Via API', 'Returns']);
  });

  it('map: settings and places with their coordinates; a bad number is named next to its field', async () => {
    const bad = await editor.post(`${base}/addons/${estateId}/map/save`, {
      what: 'settings',
      centerLat: 'north',
      centerLng: '4.9',
      defaultZoom: '14',
      tileStyle: 'OSM',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="settings-centerLat-error"');
    expect(bad.body).toContain('value="north"');
    const half = await editor.post(`${base}/addons/${estateId}/map/save`, {
      what: 'settings',
      centerLat: '52.37',
      centerLng: '',
      defaultZoom: '',
      tileStyle: 'OSM',
    });
    expect(half.statusCode).toBe(422);
    expect(half.body).toContain('id="settings-centerLng-error"');
    const ok = await editor.post(`${base}/addons/${estateId}/map/save`, {
      what: 'settings',
      centerLat: '52.37',
      centerLng: '4.89',
      defaultZoom: '15',
      tileStyle: 'OSM',
    });
    expect(ok.statusCode).toBe(303);
    const outside = await editor.post(`${base}/addons/${estateId}/map/save`, { what: 'poi', category: 'TRANSIT', label: 'Station', lat: '95', lng: '4.9' });
    expect(outside.statusCode).toBe(422);
    expect(outside.body).toContain('id="new-poi-lat-error"');
    const station = await editor.post(`${base}/addons/${estateId}/map/save`, { what: 'poi', category: 'TRANSIT', label: 'Station', lat: '52.38', lng: '4.9' });
    expect(station.statusCode).toBe(303);
    await editor.post(`${base}/addons/${estateId}/map/save`, { what: 'poi', category: 'PARKS', label: 'Park', lat: '52.36', lng: '4.88' });
    const doc = (await api('GET', `/api/v1/estates/${estateId}/map`)).json();
    expect(doc.centerLat).toBe(52.37);
    expect(doc.defaultZoom).toBe(15);
    expect(doc.pois.map((p: { label: string }) => p.label)).toEqual(['Station', 'Park']);
    await editor.post(`${base}/addons/${estateId}/map/move`, { set: 'pois', id: doc.pois[1].id, direction: 'up' });
    expect((await api('GET', `/api/v1/estates/${estateId}/map`)).json().pois.map((p: { label: string }) => p.label)).toEqual(['Park', 'Station']);
  });

  it('downloads: a group and its files picked from the organization’s', async () => {
    const group = await editor.post(`${base}/addons/${estateId}/downloads/save`, { what: 'group', title: 'Brochures' });
    expect(group.statusCode).toBe(303);
    const groupId = (await api('GET', `/api/v1/estates/${estateId}/downloads`)).json().groups[0].id;
    const file = await editor.post(`${base}/addons/${estateId}/downloads/save`, { what: 'file', groupId, assetId: [pdf.id, images[0]!.id] });
    expect(file.statusCode).toBe(303);
    const doc = (await api('GET', `/api/v1/estates/${estateId}/downloads`)).json();
    expect(doc.groups[0].items.map((i: { label: string }) => i.label)).toEqual(['brochure.pdf', 'front.jpg']);
    const removed = await editor.post(`${base}/addons/${estateId}/downloads/remove`, { set: `items:${groupId}`, id: doc.groups[0].items[1].id });
    expect(removed.statusCode).toBe(303);
    expect((await api('GET', `/api/v1/estates/${estateId}/downloads`)).json().groups[0].items).toHaveLength(1);
  });

  it('add-ons refuse a viewer (403), a missing CSRF token (403) and another organization’s estate (404), writing nothing', async () => {
    const before = (await api('GET', `/api/v1/estates/${estateId}/downloads`)).json();
    expect((await viewer.post(`${base}/addons/${estateId}/downloads/enable`, { enabled: 'true' })).statusCode).toBe(403);
    expect((await viewer.post(`${base}/addons/${estateId}/downloads/save`, { what: 'group', title: 'Viewer' })).statusCode).toBe(403);
    expect((await editor.post(`${base}/addons/${estateId}/downloads/enable`, { enabled: 'true', _csrf: '' })).statusCode).toBe(403);
    expect((await api('GET', `/api/v1/estates/${estateId}/downloads`)).json()).toEqual(before);
    const viewerPage = await viewer.get(`${base}/addons/${estateId}/gallery`);
    expect(viewerPage.statusCode).toBe(200);
    expect(viewerPage.body).not.toContain('Move up');

    expect((await editor.get(`${base}/addons/${otherEstateId}`)).statusCode).toBe(404);
    expect((await editor.get(`${base}/addons/${otherEstateId}/gallery`)).statusCode).toBe(404);
    expect((await editor.post(`${base}/addons/${otherEstateId}/gallery/enable`, { enabled: 'true' })).statusCode).toBe(404);
    expect((await api('GET', `/api/v1/estates/${otherEstateId}/gallery`, undefined, b.key)).json().enabled).toBe(false);
    expect((await editor.get(`${base}/addons/${estateId}/nonsense`)).statusCode).toBe(404);
    // Another organization's screens are not there for this member.
    expect((await editor.get(`/dashboard/o/${b.id}/assets`)).statusCode).toBe(404);
  });

  it('delete asks first, saying where the file is used and what deleting does; then removes it and its add-on items', async () => {
    const confirm = await editor.get(`${base}/assets/${images[0]!.id}/delete`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('This file is in use');
    expect(confirm.body).toContain('<li>Harbour View: 1 gallery item</li>');
    expect(confirm.body).toContain('Gallery items showing it are removed from their galleries.');
    // Another organization's asset, a viewer, no token: refused and kept.
    expect((await editor.get(`${base}/assets/${otherAssetId}/delete`)).statusCode).toBe(404);
    expect((await editor.post(`${base}/assets/${otherAssetId}/delete`, {})).statusCode).toBe(404);
    expect((await api('GET', `/api/v1/asset/${otherAssetId}`, undefined, b.key)).statusCode).toBe(200);
    expect((await viewer.post(`${base}/assets/${images[0]!.id}/delete`, {})).statusCode).toBe(403);
    expect((await editor.post(`${base}/assets/${images[0]!.id}/delete`, { _csrf: '' })).statusCode).toBe(403);
    expect((await api('GET', `/api/v1/asset/${images[0]!.id}`)).statusCode).toBe(200);

    const done = await editor.post(`${base}/assets/${images[0]!.id}/delete`, {});
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`${base}/assets?done=deleted`);
    expect((await api('GET', `/api/v1/asset/${images[0]!.id}`)).statusCode).toBe(404);
    expect((await gallery()).items.map((x) => x.assetId)).toEqual([images[1]!.id]);
    const unused = await editor.get(`${base}/assets/${pdf.id}/delete`);
    expect(unused.body).toContain('Harbour View: 1 investment file, 1 download');
  });
});
