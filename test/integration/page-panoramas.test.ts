import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageAssets } from '../../src/modules/pages/client-assets.js';
import { ADMIN_TOKEN, type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type SeededPage, seedPage } from '../helpers/page-seed.js';

// Issue 34, server side: a home's panoramas on its page (links to the images, the viewer's data, the
// viewer's bundle named but not loaded, the images' origin in img-src), and nested navigators' way back.
describe("a home's panoramas and the nested navigators' way back (issue 34)", () => {
  let t: TestApp;
  let a: TestOrg;
  let seed: SeededPage;
  const get = (url: string) => t.request({ method: 'GET', url, headers: {} });
  const panorama = async (apartmentId: string, body: Record<string, unknown>) => {
    const res = await t.request({ method: 'POST', url: `/api/v1/admin/apartments/${apartmentId}/panoramas`, key: ADMIN_TOKEN, body });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string };
  };
  let home: SeededPage['apartments'][number];
  let plain: SeededPage['apartments'][number];

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Panoramas A');
    seed = await seedPage(t, a.id, a.key, 5);
    const res = await t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, key: a.key, body: { enabled: true } });
    expect(res.statusCode).toBe(200);
    const active = seed.apartments.filter((x) => x.status === 'ACTIVE');
    home = active[0]!;
    plain = seed.apartments.find((x) => x.status === 'BOOKED')!;
    // A panorama of another home: a portal to it is not shown on this home's page.
    const elsewhere = await panorama(plain.id, { name: 'Elsewhere', src: 'https://cdn.example.com/pano/elsewhere.jpg' });
    const bedroom = await panorama(home.id, { name: 'Bedroom </script><b>', src: 'https://cdn.example.com/pano/bedroom.jpg' });
    // A host a policy would read as a wildcard: shown as a link, never added to img-src.
    await panorama(home.id, { name: 'Wild', src: 'https://*.example.net/wild.jpg', priority: -1 });
    await panorama(home.id, {
      name: 'Living room',
      src: 'https://images.example.org/living.jpg',
      priority: 5,
      metadata: { hlookat: 30, vlookat: -5 },
      portals: [
        { x: 10, y: 0, toPanoramaId: bedroom.id },
        { x: 50, y: 0, toPanoramaId: elsewhere.id },
      ],
      pois: [
        { name: 'Balcony door', x: -20, y: 10, data: { urls: ['https://shop.example/doors?model="><script>alert(1)</script>', 'http://maker.example/'] } },
        { name: 'Window', x: 40, y: 0 },
      ],
    });
  });
  afterAll(async () => t?.close());

  it("lists the panoramas on the home's page: links to the images, the viewer's data, the images' origins in img-src", async () => {
    const res = await get(`/p/${seed.slug}/homes/${home.id}`);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain(`data-viewer-src="${pageAssets().viewer}"`);
    // Highest priority first; each a link to its image.
    const links = [...html.matchAll(/<a href="([^"]+)" class="panorama-link"/g)].map((m) => m[1]);
    expect(links).toEqual(['https://images.example.org/living.jpg', 'https://cdn.example.com/pano/bedroom.jpg', 'https://*.example.net/wild.jpg']);
    expect(html).toContain('Open 360° view');
    // The name is escaped in the HTML and in the JSON block.
    expect(html).not.toContain('</script><b>');
    const data = JSON.parse(/<script type="application\/json" class="panorama-data">(.*?)<\/script>/.exec(html)![1]!);
    expect(data).toEqual([
      {
        id: expect.any(String),
        name: 'Living room',
        src: 'https://images.example.org/living.jpg',
        yaw: 30,
        pitch: -5,
        portals: [{ to: expect.any(String), name: 'Bedroom </script><b>', yaw: 10, pitch: 0 }],
        pois: [
          {
            name: 'Balcony door',
            yaw: -20,
            pitch: 10,
            urls: ['https://shop.example/doors?model=%22%3E%3Cscript%3Ealert(1)%3C/script%3E', 'http://maker.example/'],
          },
          { name: 'Window', yaw: 40, pitch: 0, urls: [] },
        ],
      },
      { id: expect.any(String), name: 'Bedroom </script><b>', src: 'https://cdn.example.com/pano/bedroom.jpg', yaw: 0, pitch: 0, portals: [], pois: [] },
      { id: expect.any(String), name: 'Wild', src: 'https://*.example.net/wild.jpg', yaw: 0, pitch: 0, portals: [], pois: [] },
    ]);
    // The points with links, listed under their panorama (the viewer shows the same when a point is
    // pressed): each link escaped, a new tab with noopener (and noreferrer); a point without links is not listed.
    const pois = /<ul class="panorama-pois">(.*?)<\/ul>/.exec(html)![1]!;
    expect(pois).toBe(
      '<li>Balcony door: <a href="https://shop.example/doors?model=%22%3E%3Cscript%3Ealert(1)%3C/script%3E" target="_blank" rel="noopener noreferrer">' +
        'shop.example/doors?model=%22%3E%3Cscript%3Ealert(1)%3C/script%3E<span class="visually-hidden"> (opens in a new tab)</span></a>, ' +
        '<a href="http://maker.example/" target="_blank" rel="noopener noreferrer">maker.example<span class="visually-hidden"> (opens in a new tab)</span></a></li>',
    );
    expect(html).not.toContain('<script>alert');
    const imgSrc = /img-src ([^;]+)/.exec(res.headers['content-security-policy'] as string)![1]!.split(' ');
    expect(imgSrc).toEqual(expect.arrayContaining(['https://images.example.org', 'https://cdn.example.com']));
    expect(imgSrc.filter((source) => source.includes('example.net'))).toEqual([]);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    // The page's other homes and the main page name no panorama and no foreign image origin.
    const main = await get(`/p/${seed.slug}`);
    expect(main.body).not.toContain('panorama-data');
    expect(main.headers['content-security-policy']).not.toContain('example.org');
    const card = await get(`/p/${seed.slug}/homes/${home.id}?part=card`);
    expect(card.body).not.toContain('panorama');
    const other = seed.apartments.find((x) => x.status === 'ACTIVE' && x.id !== home.id)!;
    expect((await get(`/p/${seed.slug}/homes/${other.id}`)).body).not.toContain('class="panoramas"');
  });

  it("the viewer is its own immutable bundle, not in the page's script", async () => {
    const { script, viewer } = pageAssets();
    expect(viewer).toMatch(/^\/assets\/page\/viewer\.\w{10}\.js$/);
    const res = await get(viewer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body).toContain('openViewer');
    expect(res.body).toContain('webgl');
    const page = (await get(script)).body;
    expect(page).not.toContain('webgl');
    expect(page).not.toContain('texImage2D');
  });

  let nestedId: string;

  it('a nested navigator starts with a link back to its parent', async () => {
    const nested = await t.request({
      method: 'POST',
      url: '/api/v1/navigator',
      key: a.key,
      body: { estateId: seed.estateId, parentId: seed.navigatorId, referenceType: 'building', referenceId: seed.buildingId, name: 'Tower B' },
    });
    expect(nested.statusCode).toBe(201);
    nestedId = (nested.json() as { id: string }).id;
    const html = (await get(`/p/${seed.slug}`)).body;
    const section = new RegExp(
      `<section class="navigator nested" id="navigator-${nestedId}" data-navigator-id="${nestedId}" data-parent-id="${seed.navigatorId}"[^>]*aria-label="Tower B"`,
    );
    expect(html).toMatch(section);
    expect(html).toContain(
      `<a class="nested-back" href="/p/${seed.slug}#navigator-${seed.navigatorId}" data-back="${seed.navigatorId}"><span aria-hidden="true">‹ </span>Back to Harbour View</a>`,
    );
    // Without ?view= no navigator is hidden by the server: the top one is shown, the nested one below it.
    expect(html).not.toContain('is-shown');
    expect(html).not.toContain('shows-nested');
  });

  it('?view= renders the nested navigator shown and the top one hidden; an unknown view is the plain page and no new kept entry', async () => {
    const pages = t.app.services.pages.pages;
    const plain = await get(`/p/${seed.slug}`);
    const viewed = await get(`/p/${seed.slug}?view=${nestedId.toUpperCase()}&status=ACTIVE`);
    expect(viewed.statusCode).toBe(200);
    const html = viewed.body;
    // The classes client/nested.ts sets: the top navigator gives its place to the nested one.
    expect(html).toMatch(new RegExp(`<section class="navigator shows-nested" id="navigator-${seed.navigatorId}"`));
    expect(html).toMatch(new RegExp(`<section class="navigator nested is-shown" id="navigator-${nestedId}"`));
    // The way back is an address (the top navigator's section is hidden here), the list's filter kept.
    expect(html).toContain(`<a class="nested-back" href="/p/${seed.slug}?status=ACTIVE#navigator-${seed.navigatorId}" data-back="${seed.navigatorId}">`);
    // The page stays canonical to itself, without the view.
    expect(html).toContain(`<link rel="canonical" href="http://localhost:3000/p/${seed.slug}"`);
    // Asked again: the kept variant (same ETag, no new entry).
    const entries = pages.size.entries;
    expect((await get(`/p/${seed.slug}?view=${nestedId}&status=ACTIVE`)).headers.etag).toBe(viewed.headers.etag);
    expect(pages.size.entries).toBe(entries);
    // Unknown, malformed, the top navigator itself, very long: the plain page, no entry of their own.
    for (const view of ['00000000-0000-4000-8000-000000000000', 'nope', seed.navigatorId, 'x'.repeat(5000), '']) {
      const res = await get(`/p/${seed.slug}?view=${view}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toBe(plain.headers.etag);
      expect(res.body).not.toContain('is-shown');
    }
    expect(pages.size.entries).toBe(entries);
    // Several view values (an array in the query) are no view either.
    const twice = await get(`/p/${seed.slug}?view=${nestedId}&view=${nestedId}`);
    expect(twice.statusCode).toBe(200);
    expect(twice.headers.etag).toBe(plain.headers.etag);
  });
});
