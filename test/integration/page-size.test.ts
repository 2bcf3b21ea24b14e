import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_PAGE_SIZE } from '../../src/modules/pages/shared/filter.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type SeededPage, seedPage } from '../helpers/page-seed.js';

// Issue 34's page budget, as a size (no timing): the page of an estate with 2,000 homes, a shape per home
// on each of 3 frames, is at most 400 KB of HTML uncompressed; the frames it leaves without their shapes
// are reachable, with their shapes, as a part for the script and as a page address of their own.
describe('the page of 2,000 homes (issue 34)', () => {
  let t: TestApp;
  let a: TestOrg;
  let seed: SeededPage;
  let html: string;
  const get = (url: string) => t.request({ method: 'GET', url, headers: {} });
  /** Each frame's figure in a page: its id, angle, whether it is shown first, and its overlay. */
  const figures = (page: string) =>
    page
      .split('<figure ')
      .slice(1)
      .filter((part) => part.startsWith('class="frame'))
      .map((part) => {
        const figure = part.slice(0, part.indexOf('</figure>'));
        return {
          id: /data-frame-id="([^"]+)"/.exec(figure)![1]!,
          angle: Number(/data-angle="([^"]+)"/.exec(figure)![1]),
          start: figure.startsWith('class="frame is-start"'),
          overlay: figure.slice(figure.indexOf('<svg class="overlay"'), figure.lastIndexOf('</svg>') + 6),
        };
      });
  const homeLinks = (text: string) => text.split(`<a href="/p/${seed.slug}/homes/`).length - 1;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Size A');
    seed = await seedPage(t, a.id, a.key, 2_000, 'Harbour Towers');
    const res = await t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, key: a.key, body: { enabled: true } });
    expect(res.statusCode).toBe(200);
    const page = await get(`/p/${seed.slug}`);
    expect(page.statusCode).toBe(200);
    html = page.body;
  }, 300_000);
  afterAll(async () => t?.close());

  const visible = () => seed.apartments.filter((x) => x.status !== 'HIDDEN');

  it('is at most 400 KB of HTML; the starting frame holds every home’s shape, the others none', async () => {
    const bytes = Buffer.byteLength(html);
    expect(bytes, `${bytes} bytes`).toBeLessThanOrEqual(400 * 1024);
    const frames = figures(html);
    expect(frames.map((f) => f.angle)).toEqual([0, 120, 240]);
    const start = frames.find((f) => f.start)!;
    expect(start.angle).toBe(120);
    expect(start.overlay).not.toContain('data-pending');
    expect(homeLinks(start.overlay)).toBe(visible().length);
    // The HIDDEN home: a bare shape in the hidden group.
    expect(start.overlay).toMatch(/<g class="status-hidden"><path d="[^"]+"><\/path><\/g>/);
    for (const other of frames.filter((f) => !f.start)) {
      expect(other.overlay).toContain('data-pending');
      expect(homeLinks(other.overlay)).toBe(0);
    }
    // Each shape has one accessible name and writes its home's id once.
    const target = visible()[7]!;
    expect(start.overlay.split(target.id).length - 1).toBe(1);
    expect(start.overlay).not.toContain('<title>Home');
    expect(start.overlay).not.toContain('data-label');
    // The Offers are on the homes' pages only.
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!);
    expect(ld['@type']).toBe('Residence');
    expect(ld.offers).toBeUndefined();
  });

  it('a frame left without its shapes: its part for the script and its own page address both hold them', async () => {
    const other = figures(html).find((f) => f.angle === 0)!;
    // The part the script fetches when it shows that frame: the overlay with its shapes, not for search engines.
    const part = await get(`/p/${seed.slug}?part=frame&frame=${other.id}`);
    expect(part.statusCode).toBe(200);
    expect(part.headers['x-robots-tag']).toBe('noindex');
    expect(part.headers['cache-control']).toContain('public');
    expect(part.body).toMatch(/^<svg class="overlay" viewBox="0 0 \d+ \d+">/);
    expect(homeLinks(part.body)).toBe(visible().length);
    expect(part.body).toContain(`<a href="/p/${seed.slug}/homes/${visible()[0]!.id}" aria-label="${visible()[0]!.name}, Available, `);
    // Its "View" link is a page of its own (works without JavaScript): that frame first, with its shapes.
    expect(html).toContain(`href="?frame=${other.id}#frame-${other.id}"`);
    const own = await get(`/p/${seed.slug}?frame=${other.id}`);
    expect(own.statusCode).toBe(200);
    const frames = figures(own.body);
    const shown = frames.find((f) => f.start)!;
    expect(shown.id).toBe(other.id);
    expect(homeLinks(shown.overlay)).toBe(visible().length);
    expect(frames.find((f) => f.angle === 120)!.overlay).toContain('data-pending');
    expect(Buffer.byteLength(own.body)).toBeLessThanOrEqual(400 * 1024);
    // A frame the page does not have: the part is the 404 page, the address the plain page; never 5xx.
    for (const bad of ['01890000-0000-7000-8000-000000000001', 'nope', '']) {
      expect((await get(`/p/${seed.slug}?part=frame&frame=${bad}`)).statusCode, bad).toBe(404);
      const page = await get(`/p/${seed.slug}?frame=${bad}`);
      expect(page.statusCode, bad).toBe(200);
      expect(figures(page.body).find((f) => f.start)!.angle).toBe(120);
    }
  });

  it('the list is shown a page at a time: every home reachable without JavaScript', async () => {
    const rows = (page: string) => [...page.matchAll(/<tr data-apartment-id="([^"]+)"/g)].map((m) => m[1]);
    const names = [...visible()].sort((x, y) => x.name.localeCompare(y.name));
    expect(rows(html)).toEqual(names.slice(0, LIST_PAGE_SIZE).map((x) => x.id));
    expect(html).toContain('data-paged');
    const pages = Math.ceil(names.length / LIST_PAGE_SIZE);
    expect(html).toContain(`Page 1 of ${pages}`);
    expect(html).toContain(`href="/p/${seed.slug}?page=2#apartments" rel="next"`);
    const last = await get(`/p/${seed.slug}?page=${pages}`);
    expect(rows(last.body)).toEqual(names.slice((pages - 1) * LIST_PAGE_SIZE).map((x) => x.id));
    expect(last.body).not.toContain('rel="next"');
    // A filter is the server's, a page of its matches at a time, its "View" links keeping it.
    const sold = await get(`/p/${seed.slug}?status=SOLD&page=2`);
    const soldNames = names.filter((x) => x.status === 'SOLD');
    expect(rows(sold.body)).toEqual(soldNames.slice(LIST_PAGE_SIZE, 2 * LIST_PAGE_SIZE).map((x) => x.id));
    expect(sold.body).toContain(`href="/p/${seed.slug}?status=SOLD#apartments" rel="prev"`);
    expect(sold.body).toMatch(/href="\?status=SOLD&amp;page=2&amp;frame=[^"]+#frame-/);
  });
});
