import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createEstate } from '../helpers/factories.js';
import { HIDDEN_PRICE_CENTS, type SeededPage, UNSHOWN_PRICE_CENTS, formBody, seedPage } from '../helpers/page-seed.js';

/** Every way a price in cents could be written on a page: plain, grouped in several locales, as units. */
function priceSpellings(cents: number): string[] {
  const units = cents / 100;
  const out = new Set<string>([String(cents), String(units), units.toFixed(2)]);
  for (const locale of ['en-US', 'de-DE', 'pl-PL', 'fr-FR', 'en-IN']) {
    out.add(new Intl.NumberFormat(locale).format(units));
    out.add(new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }).format(units));
  }
  return [...out];
}

const form = formBody;

describe('the public page (issue 27)', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;
  let seed: SeededPage;
  const page = (slug: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url: `/p/${slug}`, headers });
  const put = (body: unknown, key = a.key, estateId = seed.estateId) => t.request({ method: 'PUT', url: `/api/v1/estates/${estateId}/page`, key, body });
  const post = (slug: string, body: string) =>
    t.app.inject({ method: 'POST', url: `/p/${slug}/inquiry`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body });

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Page A');
    b = await t.createOrg('Page B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
    seed = await seedPage(t, a.id, a.key);
  });
  afterAll(async () => t?.close());

  it('is off until enabled: 404 with the same body as a slug that does not exist', async () => {
    const off = await page(seed.slug);
    const unknown = await page('no-such-estate-anywhere');
    expect(off.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(off.body).toBe(unknown.body);
    // A slug no estate can have (too long, other characters) is the same 404, never a 400.
    for (const impossible of ['a'.repeat(300), 'Ünïcode%20slug']) {
      const res = await page(impossible);
      expect(res.statusCode, impossible).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
    expect(off.headers['content-type']).toMatch(/^text\/html/);
    expect(off.body).not.toContain(seed.slug);
    const settings = await t.request({ method: 'GET', url: `/api/v1/estates/${seed.estateId}/page` });
    expect(settings.statusCode).toBe(200);
    expect(settings.json()).toMatchObject({
      estateId: seed.estateId,
      enabled: false,
      navigatorId: null,
      showApartments: true,
      showInquiryForm: true,
      embedOrigins: [],
      locale: 'en-US',
      url: `${t.config.publicUrl}/p/${seed.slug}`,
    });
  });

  it('settings: PUT with the write scope, merged, validated (422 naming the field), another organization 404, no key 401', async () => {
    const res = await put({ enabled: true, embedOrigins: ['https://agency.example', 'http://localhost:8080/'], locale: 'en-us' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ enabled: true, embedOrigins: ['https://agency.example', 'http://localhost:8080'], locale: 'en-US', navigatorId: null });
    // Fields left out keep their value.
    const again = await put({ showInquiryForm: true });
    expect(again.json()).toMatchObject({ enabled: true, embedOrigins: ['https://agency.example', 'http://localhost:8080'] });
    expectError(await put({ embedOrigins: ['https://agency.example/path'] }), 422, /embedOrigins\[0\]/);
    expectError(await put({ embedOrigins: ['*'] }), 422, /embedOrigins\[0\]/);
    expectError(await put({ embedOrigins: ["https://a.example; script-src 'unsafe-inline'"] }), 422, /embedOrigins\[0\]/);
    expectError(await put({ locale: 'not a locale!' }), 422, /locale/);
    expectError(await put({ navigatorId: '01890000-0000-7000-8000-000000000000' }), 422, /navigatorId/);
    expectError(await put({ enabled: 'yes' }), 422, /enabled/);
    expectError(await put({ colour: 'red' }), 422, /colour/);
    expectError(await put({ enabled: false }, b.key), 404);
    expectError(await put({ enabled: false }, readOnly), 403);
    expectError(await t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, body: { enabled: false } }), 401);
    expectError(await t.request({ method: 'POST', url: `/api/v1/estates/${seed.estateId}/page/preview`, key: b.key }), 404);
    expectError(await t.request({ method: 'POST', url: `/api/v1/estates/${seed.estateId}/page/preview` }), 401);
    // Nothing of the refused requests was stored.
    const owner = await t.request({ method: 'GET', url: `/api/v1/estates/${seed.estateId}/page`, key: a.key });
    expect(owner.json()).toMatchObject({ enabled: true, locale: 'en-US', embedOrigins: ['https://agency.example', 'http://localhost:8080'] });
    expect(owner.headers['cache-control']).toBe('private, no-store');
    const ok = await put({ navigatorId: seed.navigatorId });
    expect(ok.json().navigatorId).toBe(seed.navigatorId);
  });

  it('enabled: every non-hidden apartment, caption, POI and download is in the HTML, in section order', async () => {
    await put({ enabled: true });
    const res = await page(seed.slug);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    for (const apartment of seed.apartments) {
      if (apartment.status === 'HIDDEN') {
        expect(html).not.toContain(`/homes/${apartment.id}`);
        expect(html).not.toContain(apartment.name);
      } else {
        // A compact row and a shape, both linking to the home's own page (no card inlined).
        expect(html).toContain(`<tr data-apartment-id="${apartment.id}"`);
        expect(html).toContain(`href="/p/${seed.slug}/homes/${apartment.id}"`);
        expect(html).not.toContain(`id="home-${apartment.id}"`);
        expect(html).toContain(apartment.name);
      }
    }
    // The HIDDEN apartment is a shape in the hidden colours only (a bare path in the hidden group).
    expect(html).toMatch(/<g class="status-hidden"><path d="[^"]+"><\/path><\/g>/);
    // Escaped by the renderer, never interpreted.
    expect(html).toContain('Roof terrace &lt;at dusk>');
    expect(html).not.toContain('<at dusk>');
    for (const caption of ['The lobby']) expect(html).toContain(caption);
    for (const poi of seed.pois) expect(html).toContain(poi);
    for (const download of seed.downloads) expect(html).toContain(download);
    expect(html).toContain('PDF, 1.5 MB');
    expect(html).toContain('<strong>sea</strong>');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('Show map');
    expect(html).toContain('OpenStreetMap');
    // Sections in order.
    const order = ['id="navigator-', 'id="apartments"', 'id="investment"', 'id="gallery"', 'id="map"', 'id="downloads"', 'id="inquiry"'];
    const positions = order.map((marker) => html.indexOf(marker));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
    // Head: SEO title, canonical, lang, og:image a variant, JSON-LD of the estate (the Offers are on the homes' pages).
    expect(html).toContain('<html lang="en-US">');
    expect(html).toContain('<title>Harbour View: homes by the sea</title>');
    expect(html).toContain(`<link rel="canonical" href="${t.config.publicUrl}/p/${seed.slug}"/>`);
    expect(html).toMatch(/<meta property="og:image" content="[^"]+"/);
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!);
    expect(ld['@type']).toBe('Residence');
    expect(ld.offers).toBeUndefined();
    // The starting frame (startingAngle 120) is marked; the others are shown by their "View" links (:target) without JavaScript.
    expect(html).toMatch(/<figure class="frame is-start"[^>]*data-angle="120"[^>]*data-marketing-stop="true"/);
    expect(html).toMatch(/<figure class="frame" id="frame-[^"]+"[^>]*data-angle="0"/);
    expect(html).not.toMatch(/<figure[^>]*hidden/);
    // The layout buyers know: the render's region, the sidebar, the legend with each status's count in the buyer's words.
    expect(html).toContain('aria-label="Project view"');
    expect(html).toMatch(/<aside class="sidebar" id="apartments" aria-label="Homes"/);
    for (const [status, word] of [
      ['ACTIVE', 'Available'],
      ['BOOKED', 'Reserved'],
      ['SOLD', 'Sold'],
    ] as const) {
      const n = seed.apartments.filter((x) => x.status === status).length;
      expect(html).toContain(
        `<li data-status="${status.toLowerCase()}"><span class="swatch status-${status.toLowerCase()}" aria-hidden="true"></span>${word} <span class="legend-count">${n}</span></li>`,
      );
    }
    expect(html).not.toContain('>Active<');
    expect(html).toContain('aria-label="Previous view"');
  });

  it('shows exactly what a publishable key reads: no hidden or unshown price in any formatting, no external id, no price history', async () => {
    const html = (await page(seed.slug)).body;
    for (const cents of [HIDDEN_PRICE_CENTS, UNSHOWN_PRICE_CENTS]) for (const spelling of priceSpellings(cents)) expect(html).not.toContain(spelling);
    expect(html).not.toContain('crm-secret');
    expect(html).not.toContain('priceChangeHistory');
    // Shown prices are there, formatted for the locale.
    const shown = seed.apartments.find((x) => x.status === 'ACTIVE' && x.showPrice)!;
    expect(html).toContain(new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }).format(shown.priceCents / 100));
  });

  it('headers: strict CSP with frame-ancestors from embedOrigins, cache headers, ETag and 304, compression', async () => {
    await put({ embedOrigins: ['https://agency.example'] });
    const res = await page(seed.slug);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'self' https://agency.example");
    expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(res.headers['cache-control']).toBe('public, max-age=30, stale-while-revalidate=300');
    expect(res.headers['surrogate-key']).toContain(`estate-${seed.estateId}`);
    // A strong tag: quoted, without the W/ prefix (the hash itself may start with any base64url character).
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await page(seed.slug, { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
    // No inline script; the only inline style is the theme, whose hash is in the CSP.
    expect(res.body).not.toMatch(/<script(?![^>]*(type="application\/ld\+json"|type="application\/json" id="page-words"|src=))/);
    expect(res.body).not.toMatch(/ style="/);
    const theme = /<style>(.*?)<\/style>/.exec(res.body)![1]!;
    expect(theme).toContain('--apartment-active-fill:#22c55e');
    const { createHash } = await import('node:crypto');
    expect(csp).toContain(`'sha256-${createHash('sha256').update(theme).digest('base64')}'`);
    await put({ embedOrigins: [] });
    const anywhere = await page(seed.slug);
    expect(String(anywhere.headers['content-security-policy'])).toContain('frame-ancestors *');
    // Same HTML, another policy: a new ETag, so a revalidating cache takes the new header.
    expect(anywhere.headers.etag).not.toBe(res.headers.etag);
    expect((await page(seed.slug, { 'if-none-match': String(res.headers.etag) })).statusCode).toBe(200);
    const br = await page(seed.slug, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe((await page(seed.slug)).body);
    // The stylesheet: hashed name, immutable.
    const href = /<link rel="stylesheet" href="([^"]+)"/.exec(res.body)![1]!;
    const css = await t.request({ method: 'GET', url: href });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('is rendered again after a change (the kept page follows the data)', async () => {
    const before = await page(seed.slug);
    const target = seed.apartments.find((x) => x.status === 'ACTIVE')!;
    const patched = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${target.id}`, key: a.key, body: { name: 'Renamed Home' } });
    expect(patched.statusCode).toBe(200);
    const after = await page(seed.slug);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body).toContain('Renamed Home');
    target.name = 'Renamed Home';
  });

  it('the no-JS filter form narrows the list with a plain GET', async () => {
    const res = await t.request({ method: 'GET', url: `/p/${seed.slug}?status=SOLD&rooms=&floor=`, headers: {} });
    expect(res.statusCode).toBe(200);
    const sold = seed.apartments.filter((x) => x.status === 'SOLD');
    const active = seed.apartments.find((x) => x.status === 'ACTIVE')!;
    // Every row is there (the script filters the same rows); those the filter leaves out are hidden.
    for (const s of sold) expect(res.body).toMatch(new RegExp(`<tr data-apartment-id="${s.id}"`));
    expect(res.body).toMatch(new RegExp(`<tr hidden="" data-apartment-id="${active.id}"|<tr hidden data-apartment-id="${active.id}"`));
    expect(res.body).toContain('<option value="SOLD" selected>');
    // Nonsense in the query is ignored, never a 5xx.
    const odd = await t.request({ method: 'GET', url: `/p/${seed.slug}?rooms=abc&floor=99999999999999&status=<x>&maxPrice=-1&q=${'x'.repeat(500)}` });
    expect(odd.statusCode).toBe(200);
    // A visitor's URL cannot fill the kept pages: an "Ask about" of an id not on the page is the plain page
    // (nothing more kept); a name search is kept among the estate's variants, whose bound
    // test/integration/cache-bounds.test.ts floods.
    await page(seed.slug);
    const kept = t.app.services.pages.pages.size.entries;
    for (const id of ['01890000-0000-7000-8000-000000000001', '01890000-0000-7000-8000-000000000002']) {
      const res = await page(`${seed.slug}?apartment=${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(`value="${id}"`);
    }
    expect(t.app.services.pages.pages.size.entries).toBe(kept);
    for (const q of ['a', 'b', 'c']) expect((await page(`${seed.slug}?q=${q}`)).statusCode).toBe(200);
    expect(t.app.services.pages.pages.size.entries).toBeLessThanOrEqual(kept + 3);
  });

  it('the no-JS inquiry form: 303 to the thank-you state, the form again (422) with each error next to its field, honeypot', async () => {
    const apartment = seed.apartments.find((x) => x.status === 'ACTIVE')!;
    const asked = await page(`${seed.slug}?apartment=${apartment.id}`);
    expect(asked.body).toContain(`name="apartmentIds" value="${apartment.id}" checked`);

    const count = async () => Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM inquiries WHERE estate_id = $1', [seed.estateId]))[0]!.n);
    const before = await count();
    const ok = await post(
      seed.slug,
      form({ name: 'Ada Buyer', email: 'ada@example.com', phoneNumber: '+48 600 100 200', info: 'Hi', apartmentIds: apartment.id, website: '' }),
    );
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(`/p/${seed.slug}?sent=1#inquiry`);
    expect(await count()).toBe(before + 1);
    const stored = await t.db.query<{ apartment_ids: string[] }>('SELECT apartment_ids FROM inquiries WHERE email = $1', ['ada@example.com']);
    expect(stored[0]!.apartment_ids).toEqual([apartment.id]);
    const thanks = await page(`${seed.slug}?sent=1`);
    expect(thanks.body).toContain('Thank you');

    const bad = await post(seed.slug, form({ name: '', email: 'not-an-email', phoneNumber: 'call me', info: 'x' }));
    expect(bad.statusCode).toBe(422);
    expect(bad.headers['content-type']).toMatch(/^text\/html/);
    expect(bad.body).toMatch(/id="inquiry-name"[^>]*aria-invalid="true"[^>]*\/><span class="error" id="inquiry-name-error">Enter your name/);
    expect(bad.body).toMatch(
      /id="inquiry-email"[^>]*value="not-an-email"[^>]*aria-invalid="true"[^>]*\/><span class="error" id="inquiry-email-error">Enter an e-mail/,
    );
    expect(bad.body).toMatch(/id="inquiry-phoneNumber"[^>]*aria-invalid="true"[^>]*\/><span class="error" id="inquiry-phoneNumber-error">Enter a phone number/);
    expect(bad.body).toContain('<textarea id="inquiry-info"');
    expect(await count()).toBe(before + 1);

    const foreign = await post(seed.slug, form({ name: 'Ada', email: 'ada2@example.com', apartmentIds: '01890000-0000-7000-8000-000000000000' }));
    expect(foreign.statusCode).toBe(422);
    expect(foreign.body).toContain('Choose homes of this project');
    expect(await count()).toBe(before + 1);

    const spam = await post(seed.slug, form({ name: 'Bot', email: 'bot@example.com', website: 'http://spam.example' }));
    expect(spam.statusCode).toBe(303);
    expect(await count()).toBe(before + 1);

    const hostile = await post(seed.slug, form({ name: '<script>alert(1)</script>', email: 'x' }));
    expect(hostile.statusCode).toBe(422);
    expect(hostile.body).toContain('value="&lt;script>alert(1)&lt;/script>"');
    expect(hostile.body).not.toContain('<script>alert(1)');

    // A form body past the limit: a page saying so (413, HTML, the way back), nothing stored.
    const huge = await t.app.inject({
      method: 'POST',
      url: `/p/${seed.slug}/inquiry`,
      remoteAddress: '203.0.113.77',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ name: 'Ada', email: 'ada4@example.com', info: 'x'.repeat(70 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(huge.body).toContain('<h1>Your inquiry is too long</h1>');
    expect(huge.body).toContain(`<a href="/p/${seed.slug}#inquiry">`);
    expect(await count()).toBe(before + 1);

    // Off: the form posts nowhere.
    await put({ enabled: false });
    const off = await post(seed.slug, form({ name: 'Ada', email: 'ada3@example.com' }));
    expect(off.statusCode).toBe(404);
    expect(await count()).toBe(before + 1);
    await put({ enabled: true });
  });

  it('preview links: render while off with noindex; expired and tampered links are 404', async () => {
    await put({ enabled: false });
    const res = await t.request({ method: 'POST', url: `/api/v1/estates/${seed.estateId}/page/preview`, key: a.key });
    expect(res.statusCode, res.body).toBe(201);
    const { url, expiresAt } = res.json() as { url: string; expiresAt: string };
    const hours = (Date.parse(expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const path = url.slice(t.config.publicUrl.length);
    expect(path).toMatch(new RegExp(`^/p/${seed.slug}\\?preview=`));
    const shown = await t.request({ method: 'GET', url: path });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(shown.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(shown.headers['cache-control']).toBe('private, no-store');
    const token = new URL(url).searchParams.get('preview')!;
    const [expires, mac] = token.split('.') as [string, string];
    const tampered = `${expires}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    expect((await page(`${seed.slug}?preview=${tampered}`)).statusCode).toBe(404);
    const longer = `${Number(expires) + 1000}.${mac}`;
    expect((await page(`${seed.slug}?preview=${longer}`)).statusCode).toBe(404);
    // An expired link: signed correctly with the estate's secret, but in the past.
    const { signPreview } = await import('../../src/modules/pages/preview.js');
    const secret = (await t.db.query<{ preview_secret: Buffer }>('SELECT preview_secret FROM estate_pages WHERE estate_id = $1', [seed.estateId]))[0]!
      .preview_secret;
    const past = signPreview(Buffer.from(secret), seed.estateId, Date.now() - 1000);
    expect((await page(`${seed.slug}?preview=${past}`)).statusCode).toBe(404);
    const fresh = signPreview(Buffer.from(secret), seed.estateId, Date.now() + 60_000);
    expect((await page(`${seed.slug}?preview=${fresh}`)).statusCode).toBe(200);
    // Another estate's link does not open this one.
    expect((await page(`no-such-estate?preview=${token}`)).statusCode).toBe(404);
    await put({ enabled: true });
  });

  it('DELETE …/page/previews ends every preview link issued before it; links issued after work; 404 for another organization, 401 without a key', async () => {
    await put({ enabled: false });
    const issue = async () => {
      const res = await t.request({ method: 'POST', url: `/api/v1/estates/${seed.estateId}/page/preview`, key: a.key });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { url: string }).url.slice(t.config.publicUrl.length);
    };
    const revoke = (key?: string, estateId = seed.estateId) =>
      t.request({ method: 'DELETE', url: `/api/v1/estates/${estateId}/page/previews`, ...(key ? { key } : {}) });
    const first = await issue();
    const second = await issue();
    expect((await t.request({ method: 'GET', url: first })).statusCode).toBe(200);
    expectError(await revoke(b.key), 404);
    expectError(await revoke(), 401);
    expectError(await revoke(a.key, '01890000-0000-7000-8000-000000000000'), 404);
    // Neither of those ended anything.
    expect((await t.request({ method: 'GET', url: second })).statusCode).toBe(200);
    const revoked = await revoke(a.key);
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    expect((await t.request({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: second })).statusCode).toBe(404);
    const third = await issue();
    expect((await t.request({ method: 'GET', url: third })).statusCode).toBe(200);
    // Revoked twice: the link issued between the two ends too.
    expect((await revoke(a.key)).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: third })).statusCode).toBe(404);
    // An estate never previewed has no links to end: 204, and its first link works.
    const fresh = await createEstate(t, a.key);
    expect((await revoke(a.key, fresh.id)).statusCode).toBe(204);
    await put({ enabled: true });
  });

  it('an estate of another organization cannot be configured or previewed, and its page is not theirs to read privately', async () => {
    const other = await seedPage(t, b.id, b.key, 3, 'Other Place');
    expectError(await put({ enabled: true }, a.key, other.estateId), 404);
    expectError(await t.request({ method: 'POST', url: `/api/v1/estates/${other.estateId}/page/preview`, key: a.key }), 404);
    const read = await t.request({ method: 'GET', url: `/api/v1/estates/${other.estateId}/page`, key: a.key });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ enabled: false, navigatorId: null });
    expect((await page(other.slug)).statusCode).toBe(404);
    expectError(await t.request({ method: 'GET', url: '/api/v1/estates/not-a-uuid/page' }), 404);
  });
  it('a settings change emits page.updated with the settings and what changed (a CDN purge signal); a PUT that changes nothing emits none', async () => {
    const hook = await t.request({ method: 'POST', url: '/api/v1/webhooks', key: a.key, body: { url: 'http://127.0.0.1:9/hooks', events: ['page.updated'] } });
    expect(hook.statusCode).toBe(201);
    const events = async () =>
      (await t.db.query<{ body: string }>("SELECT body FROM webhook_events WHERE organization_id = $1 AND type = 'page.updated' ORDER BY id", [a.id])).map(
        (e) => JSON.parse(e.body) as { data: Record<string, unknown>; changes: Record<string, unknown> },
      );
    const current = (await t.request({ method: 'GET', url: `/api/v1/estates/${seed.estateId}/page`, key: a.key })).json() as { showInquiryForm: boolean };
    expect((await put({ showInquiryForm: !current.showInquiryForm })).statusCode).toBe(200);
    expect((await put({ showInquiryForm: !current.showInquiryForm })).statusCode).toBe(200); // the same again: no change
    const refused = await put({ locale: 'not a locale!' });
    expect(refused.statusCode).toBe(422);
    const sent = await events();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data).toMatchObject({
      estateId: seed.estateId,
      showInquiryForm: !current.showInquiryForm,
      url: expect.stringContaining(`/p/${seed.slug}`),
    });
    expect(sent[0]!.changes).toEqual({ showInquiryForm: { before: current.showInquiryForm, after: !current.showInquiryForm } });
    expect(JSON.stringify(sent[0])).not.toMatch(/secret/i);
    expect((await put({ showInquiryForm: current.showInquiryForm })).statusCode).toBe(200);
    expect(await events()).toHaveLength(2);
    // Another organization's subscription hears nothing of it.
    expect((await t.db.query("SELECT 1 FROM webhook_events WHERE organization_id = $1 AND type = 'page.updated'", [b.id])).length).toBe(0);
  });
});
