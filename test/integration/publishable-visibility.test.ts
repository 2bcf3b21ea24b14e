import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createBuilding, createEstate, createProject } from '../helpers/factories.js';
import { multipart, pdf, png } from './assets-fixtures.js';

/**
 * Issue 25, item 4: a website key sees only the assets something public shows, and no price of a
 * HIDDEN apartment. The rule is one SQL predicate (src/modules/assets/public-assets.ts).
 */
describe('what a publishable key sees of assets and hidden apartments', () => {
  let t: TestApp;
  let a: TestOrg;
  let browser: string;
  const ids: Record<string, string> = {};
  let galleryItemId = '';
  let estateId = '';

  const ok = async (method: 'POST' | 'PUT' | 'PATCH', url: string, body: unknown) => {
    const res = await t.request({ method, url, key: a.key, body });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const upload = async (name: string, data = png(), type = 'image/png') => {
    const { body, headers } = multipart({ filename: `${name}.${type === 'image/png' ? 'png' : 'pdf'}`, type, data });
    const res = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: a.key, body, headers });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const listed = async (key: string, query = '') => {
    const res = await t.request({ method: 'GET', url: `/api/v1/asset${query}`, key });
    expect(res.statusCode, res.body).toBe(200);
    return { ids: (res.json() as Array<{ id: string }>).map((x) => x.id).sort(), total: res.headers['x-total-count'], body: res.body };
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Website');
    browser = (await t.issueKey(a.id, ['publishable'])).key;
    for (const name of ['draft', 'apartment', 'gallery', 'galleryOff', 'downloads', 'investment', 'logo']) {
      ids[name] = await upload(name, name === 'draft' ? pdf() : png(), name === 'draft' ? 'application/pdf' : 'image/png');
    }
    const { estate, apartment } = await createProject(t, a.key);
    estateId = estate.id;
    await ok('PATCH', `/api/v1/apartment/${apartment.id}`, { assetsIds: [ids.apartment] });
    const base = `/api/v1/estates/${estate.id}`;
    await ok('PUT', `${base}/gallery`, { enabled: true });
    galleryItemId = (await ok('POST', `${base}/gallery/items`, { assetId: ids.gallery, caption: 'Facade' })).id;
    await ok('PUT', `${base}/downloads`, { enabled: true });
    const group = await ok('POST', `${base}/downloads/groups`, { title: 'Brochures' });
    await ok('POST', `${base}/downloads/groups/${group.id}/items`, { assetId: ids.downloads, label: 'Brochure' });
    await ok('PUT', `${base}/investment`, { enabled: true });
    const section = await ok('POST', `${base}/investment/sections`, { title: 'Plans', description: '<p>Plans</p>' });
    await ok('POST', `${base}/investment/sections/${section.id}/files`, { assetId: ids.investment, label: 'Plan' });
    await ok('PUT', `${base}/map`, { enabled: true, logoAssetId: ids.logo });
    // An add-on that is off shows nothing publicly: its items' assets stay private.
    const other = await createEstate(t, a.key);
    await ok('POST', `/api/v1/estates/${other.id}/gallery/items`, { assetId: ids.galleryOff, caption: 'Not yet' });
  });
  afterAll(async () => t?.close());

  it('lists only assets a public page shows: apartments, enabled add-ons, the map logo; never the draft or its src', async () => {
    const pub = ['apartment', 'gallery', 'downloads', 'investment', 'logo'].map((n) => ids[n]!).sort();
    const seen = await listed(browser);
    expect(seen.ids).toEqual(pub);
    expect(seen.total).toBe('5');
    expect(seen.body).not.toContain(ids.draft);
    expect(seen.body).not.toContain(ids.galleryOff);
    // The owner's keys list everything.
    expect((await listed(a.key)).ids).toEqual(Object.values(ids).sort());
    // Filters combine with the rule; unused=false is the used ones the page shows.
    expect((await listed(browser, '?mimeType=application/pdf')).ids).toEqual([]);
    expect((await listed(browser, '?unused=false')).ids).toEqual(pub);
  });

  it('reads any other asset as 404, as if it did not exist; unused=true is 403', async () => {
    for (const name of ['draft', 'galleryOff']) {
      const res = await t.request({ method: 'GET', url: `/api/v1/asset/${ids[name]}`, key: browser });
      expect(res.statusCode, name).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: `Asset with id ${ids[name]} not found` });
      expect((await t.request({ method: 'GET', url: `/api/v1/asset/${ids[name]}`, key: a.key })).statusCode).toBe(200);
    }
    const shown = await t.request({ method: 'GET', url: `/api/v1/asset/${ids.gallery}`, key: browser });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().usedBy.gallery).toEqual([galleryItemId]);
    const unused = await t.request({ method: 'GET', url: '/api/v1/asset?unused=true', key: browser });
    expect(unused.statusCode).toBe(403);
    expect(unused.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    expect((await t.request({ method: 'GET', url: '/api/v1/asset?unused=true', key: a.key })).statusCode).toBe(200);
  });

  it('an asset stops being readable when its add-on is turned off, and usedBy names only public uses', async () => {
    const both = await upload('both');
    const other = await createEstate(t, a.key);
    const hidden = await ok('POST', `/api/v1/estates/${other.id}/gallery/items`, { assetId: both, caption: 'Off' });
    const shownItem = await ok('POST', `/api/v1/estates/${estateId}/gallery/items`, { assetId: both, caption: 'On' });
    const read = await t.request({ method: 'GET', url: `/api/v1/asset/${both}`, key: browser });
    expect(read.json().usedBy.gallery).toEqual([shownItem.id]);
    expect((await t.request({ method: 'GET', url: `/api/v1/asset/${both}`, key: a.key })).json().usedBy.gallery.sort()).toEqual(
      [hidden.id, shownItem.id].sort(),
    );
    await ok('PUT', `/api/v1/estates/${estateId}/gallery`, { enabled: false });
    expect((await t.request({ method: 'GET', url: `/api/v1/asset/${both}`, key: browser })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/v1/asset/${ids.gallery}`, key: browser })).statusCode).toBe(404);
    await ok('PUT', `/api/v1/estates/${estateId}/gallery`, { enabled: true });
    expect((await t.request({ method: 'GET', url: `/api/v1/asset/${ids.gallery}`, key: browser })).statusCode).toBe(200);
  });

  it('a HIDDEN apartment’s price is hidden like showPrice: false: by id, in lists, in price filters and sorts', async () => {
    const building = await createBuilding(t, a.key, estateId);
    const bulk = await ok('POST', '/api/v1/apartment/bulk', {
      buildingId: building.id,
      apartments: [
        { name: 'Cheap', priceCents: 100 },
        { name: 'Hidden', priceCents: 200, status: 'HIDDEN', showPrice: true },
        { name: 'Dear', priceCents: 300, status: 'SOLD' },
      ],
    });
    const hiddenId = bulk.ids[1] as string;
    const byId = await t.request({ method: 'GET', url: `/api/v1/apartment/${hiddenId}`, key: browser });
    expect(byId.json()).toMatchObject({ status: 'HIDDEN', priceCents: null });
    expect((await t.request({ method: 'GET', url: `/api/v1/apartment/${hiddenId}`, key: a.key })).json().priceCents).toBe(200);
    const names = async (query: string, key: string) => {
      const res = await t.request({ method: 'GET', url: `/api/v1/apartment?buildingId=${building.id}&${query}`, key });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as Array<{ name: string; priceCents: number | null }>).map((i) => `${i.name}:${i.priceCents}`);
    };
    expect(await names('sort=priceCents', browser)).toEqual(['Cheap:100', 'Dear:300', 'Hidden:null']);
    expect(await names('sort=-priceCents', browser)).toEqual(['Dear:300', 'Cheap:100', 'Hidden:null']);
    expect(await names('minPrice=150&maxPrice=250', browser)).toEqual([]);
    expect(await names('minPrice=150&maxPrice=250', a.key)).toEqual(['Hidden:200']);
    // Shown again once it is no longer HIDDEN.
    await ok('PATCH', `/api/v1/apartment/${hiddenId}`, { status: 'ACTIVE' });
    expect(await names('minPrice=150&maxPrice=250', browser)).toEqual(['Hidden:200']);
  });
});
