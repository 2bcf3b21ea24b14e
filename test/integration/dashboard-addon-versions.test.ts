import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type DashboardUser, joinAs } from '../helpers/dashboard.js';
import { createProject } from '../helpers/factories.js';
import { multipart } from './assets-fixtures.js';

type Item = { id: string; assetId: string; caption: string | null };

/**
 * The add-on forms' version counts writes to the add-on only (issue 35): an image's variants arriving
 * between opening the gallery editor and saving it do not make the form stale, while the public read's
 * ETag still changes with them; a real concurrent edit is still 412 (both engines).
 */
describe('dashboard add-on versions', () => {
  let t: TestApp;
  let a: TestOrg;
  let editor: DashboardUser;
  let base: string;
  let estateId: string;
  let assetId: string;
  let itemId: string;

  const galleryUrl = () => `/api/v1/estates/${estateId}/gallery`;
  const item = async () =>
    ((await t.request({ method: 'GET', url: galleryUrl(), key: a.key })).json() as { items: Item[] }).items.find((x) => x.id === itemId)!;
  const formVersion = async () => /name="version" value="(\d+)"/.exec((await editor.get(`${base}/addons/${estateId}/gallery`)).body)![1]!;

  beforeAll(async () => {
    // On demand: the variants are made when asked for, so the test decides when they arrive.
    t = await createTestApp({ imageJobs: 'on-demand' });
    a = await t.createOrg('Versions');
    editor = await joinAs(t, a.id, 'editor@versions.example', 'editor');
    base = `/dashboard/o/${a.id}`;
    estateId = (await createProject(t, a.key)).estate.id;
    const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 10, g: 90, b: 160 } } })
      .png()
      .toBuffer();
    const { body, headers } = multipart({ filename: 'facade.png', type: 'image/png', data: png });
    const up = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: a.key, body, headers });
    expect(up.statusCode, up.body).toBe(201);
    assetId = up.json().id;
    expect((await t.request({ method: 'PUT', url: galleryUrl(), key: a.key, body: { enabled: true } })).statusCode).toBe(200);
    const made = await t.request({ method: 'POST', url: `${galleryUrl()}/items`, key: a.key, body: { assetId } });
    expect(made.statusCode, made.body).toBe(201);
    itemId = made.json().id;
  });
  afterAll(() => t?.close());

  it('variants made after the editor was opened leave its form current; the public ETag still changes', async () => {
    const before = await t.request({ method: 'GET', url: galleryUrl() });
    expect(before.statusCode).toBe(200);
    const version = await formVersion();

    // The variants arrive (as the background job would make them, seconds after the upload).
    await t.app.services.assets.images.ensure(a.id, assetId);
    const after = await t.request({ method: 'GET', url: galleryUrl() });
    expect(after.statusCode).toBe(200);
    // The public document embeds the variants, so its ETag moves with them (a cache must not keep the old one).
    expect(after.body).not.toBe(before.body);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await t.request({ method: 'GET', url: galleryUrl(), headers: { 'if-none-match': before.headers.etag as string } })).statusCode).toBe(200);

    // The form opened before the variants saves: nobody changed the add-on.
    expect(await formVersion()).toBe(version);
    const saved = await editor.post(`${base}/addons/${estateId}/gallery/save`, { what: 'item', id: itemId, caption: 'Facade at dusk', version });
    expect(saved.statusCode, saved.body).toBe(303);
    expect((await item()).caption).toBe('Facade at dusk');
  });

  it('a real edit between opening and saving is still 412 and writes nothing', async () => {
    const version = await formVersion();
    const patched = await t.request({ method: 'PATCH', url: `${galleryUrl()}/items/${itemId}`, key: a.key, body: { caption: 'From the API' } });
    expect(patched.statusCode, patched.body).toBe(200);
    const stale = await editor.post(`${base}/addons/${estateId}/gallery/save`, { what: 'item', id: itemId, caption: 'From the dashboard', version });
    expect(stale.statusCode).toBe(412);
    expect(stale.body).toContain('Someone changed this since you opened it');
    expect((await item()).caption).toBe('From the API');
    // The refused form shows the current version, and sending it again saves.
    const current = /name="version" value="(\d+)"/.exec(stale.body)![1]!;
    expect(current).not.toBe(version);
    const again = await editor.post(`${base}/addons/${estateId}/gallery/save`, { what: 'item', id: itemId, caption: 'From the dashboard', version: current });
    expect(again.statusCode, again.body).toBe(303);
    expect((await item()).caption).toBe('From the dashboard');
  });
});
