import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startingIndex } from '../../src/modules/pages/shared/frames.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type SeededPage, seedPage } from '../helpers/page-seed.js';

// The viewer buyers know (issue 34), server side: a page per home, filters in the address, the
// description always written, one starting frame.
describe('a page per home, filters in the address, the description (issue 34)', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let seed: SeededPage;
  let other: SeededPage;
  const get = (url: string) => t.request({ method: 'GET', url, headers: {} });
  const home = (id: string, slug = seed.slug, query = '') => get(`/p/${slug}/homes/${id}${query}`);

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Homes A');
    b = await t.createOrg('Homes B');
    seed = await seedPage(t, a.id, a.key, 9);
    other = await seedPage(t, b.id, b.key, 3, 'Other Place');
    for (const [org, s] of [
      [a, seed],
      [b, other],
    ] as const) {
      const res = await t.request({ method: 'PUT', url: `/api/v1/estates/${s.estateId}/page`, key: org.key, body: { enabled: true } });
      expect(res.statusCode).toBe(200);
    }
  });
  afterAll(async () => t?.close());

  it("a home's page: its card, facts, canonical, JSON-LD and the form about it; linked from the list and the shapes", async () => {
    const target = seed.apartments.find((x) => x.status === 'ACTIVE' && x.showPrice)!;
    const res = await home(target.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toContain('public');
    const html = res.body;
    expect(html).toMatch(new RegExp(`<h1 id="home-${target.id}-title"[^>]*>${target.name}</h1>`));
    expect(html).toContain(`<link rel="canonical" href="${t.config.publicUrl}/p/${seed.slug}/homes/${target.id}"/>`);
    expect(html).toContain('Available');
    expect(html).toContain(new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }).format(target.priceCents / 100));
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!);
    expect(ld).toMatchObject({ '@type': 'Apartment', name: target.name, offers: { '@type': 'Offer', priceCurrency: 'EUR' } });
    expect(html).toContain(`name="apartmentIds" value="${target.id}" checked`);
    expect(html).toMatch(/<meta name="description" content="[^"]+"/);
    expect(html).toContain(`href="/p/${seed.slug}"`);
    // The main page links every visible home's page from its row and its shape (the starting frame's).
    const main = (await get(`/p/${seed.slug}`)).body;
    expect(main.split(`href="/p/${seed.slug}/homes/${target.id}"`).length - 1).toBe(2);
    // The card alone, for the script's panel: the same card, no page around it, not for search engines.
    const card = await home(target.id, seed.slug, '?part=card');
    expect(card.statusCode).toBe(200);
    expect(card.body).toMatch(/^<section class="home-card"/);
    expect(card.body).not.toContain('<html');
    expect(card.headers['x-robots-tag']).toBe('noindex');
  });

  it('404 for a HIDDEN home, an unknown or malformed id, another estate’s home, or a page that is off; never 5xx', async () => {
    const notFound = (await get('/p/no-such-estate')).body;
    const hidden = seed.apartments.find((x) => x.status === 'HIDDEN')!;
    const foreign = other.apartments.find((x) => x.status === 'ACTIVE')!;
    for (const [id, slug] of [
      [hidden.id, seed.slug],
      ['01890000-0000-7000-8000-000000000001', seed.slug],
      ['not-a-uuid', seed.slug],
      ['x'.repeat(100), seed.slug],
      [foreign.id, seed.slug],
      [seed.apartments[0]!.id, 'no-such-estate'],
    ] as Array<[string, string]>) {
      for (const query of ['', '?part=card']) {
        const res = await home(id, slug, query);
        expect(res.statusCode, `${slug}/${id}${query}`).toBe(404);
        expect(res.body).toBe(notFound);
      }
    }
    // The foreign home is on its own estate's page.
    expect((await home(foreign.id, other.slug)).statusCode).toBe(200);
    // Off: the homes' pages go with the page.
    await t.request({ method: 'PUT', url: `/api/v1/estates/${other.estateId}/page`, key: b.key, body: { enabled: false } });
    expect((await home(foreign.id, other.slug)).statusCode).toBe(404);
    await t.request({ method: 'PUT', url: `/api/v1/estates/${other.estateId}/page`, key: b.key, body: { enabled: true } });
  });

  it('filters in the address: status, rooms, price range and building applied by the server (rows hidden, fields kept)', async () => {
    const priced = seed.apartments.filter((x) => x.status !== 'HIDDEN' && x.showPrice).sort((x, y) => x.priceCents - y.priceCents);
    const min = priced[2]!.priceCents / 100;
    const max = priced[5]!.priceCents / 100;
    const res = await get(`/p/${seed.slug}?minPrice=${min}&maxPrice=${max}&building=${seed.buildingId}`);
    expect(res.statusCode).toBe(200);
    const shown = [...res.body.matchAll(/<tr data-apartment-id="([^"]+)"/g)].map((m) => m[1]).sort();
    expect(shown).toEqual(
      priced
        .filter((x) => x.priceCents / 100 >= min && x.priceCents / 100 <= max)
        .map((x) => x.id)
        .sort(),
    );
    expect(res.body).toContain(`id="filter-min-price" name="minPrice" type="number" min="0" step="1" inputmode="numeric" value="${min}"`);
    const none = await get(`/p/${seed.slug}?building=01890000-0000-7000-8000-000000000001`);
    expect([...none.body.matchAll(/<tr data-apartment-id="/g)].length).toBe(0);
    expect(none.body).toMatch(/0 of \d+ homes/);
  });

  it('always a meta description: the SEO description, else the estate’s, else one made from the facts', async () => {
    const description = (html: string) => /<meta name="description" content="([^"]*)"/.exec(html)?.[1];
    expect(description((await get(`/p/${seed.slug}`)).body)).toBe('Apartments with a view of the harbour.');
    await t.request({ method: 'PATCH', url: `/api/v1/navigator/${other.navigatorId}`, key: b.key, body: { seoDescription: null } });
    expect(description((await get(`/p/${other.slug}`)).body)).toBe('Homes by the harbour.');
    await t.request({ method: 'PATCH', url: `/api/v1/estate/${other.estateId}`, key: b.key, body: { description: null } });
    const made = description((await get(`/p/${other.slug}`)).body);
    const available = other.apartments.filter((x) => x.status === 'ACTIVE').length;
    expect(made).toMatch(new RegExp(`^Other Place: ${available} homes? available, .*prices from €`));
  });

  it('the page’s words in its language: de-DE, fr-FR, pl-PL show none of the English vocabulary, and lang matches', async () => {
    const english = [
      'Available',
      'Reserved',
      'Sold',
      'Homes',
      'Legend',
      'Rooms',
      'Price',
      'Floor',
      'Show map',
      'Gallery',
      'Send inquiry',
      'Previous view',
      'Next view',
      'On request',
      'Minimum price',
      'Maximum price',
      'Show homes',
      'Clear',
      'Neighbourhood',
      'Ask about a home',
      'Phone',
      'Skip to content',
      'Project view',
    ];
    const said = (html: string) =>
      [
        html
          .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, ' ')
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' '),
        ...[...html.matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1]),
      ].join(' | ');
    const target = other.apartments.find((x) => x.status === 'ACTIVE')!;
    for (const [locale, words] of [
      ['de-DE', ['Verfügbar', 'Wohnungen', 'Legende', 'Karte zeigen', 'Anfrage senden']],
      ['fr-FR', ['Disponible', 'Logements', 'Légende', 'Afficher la carte', 'Envoyer la demande']],
      ['pl-PL', ['Dostępne', 'Mieszkania', 'Legenda', 'Pokaż mapę', 'Wyślij zapytanie']],
    ] as const) {
      const put = await t.request({ method: 'PUT', url: `/api/v1/estates/${other.estateId}/page`, key: b.key, body: { locale } });
      expect(put.statusCode).toBe(200);
      for (const url of [`/p/${other.slug}`, `/p/${other.slug}/homes/${target.id}`]) {
        const html = (await get(url)).body;
        expect(html).toContain(`<html lang="${locale}">`);
        // What the partner entered shows as entered: taken out before looking for the page's own words.
        let text = said(html);
        for (const entered of [...other.downloads, ...other.captions, ...other.pois]) text = text.split(entered).join(' ');
        for (const word of english) expect(text, `${locale} ${url}: "${word}"`).not.toMatch(new RegExp(`\\b${word}\\b`));
        if (url === `/p/${other.slug}`) for (const word of words) expect(text, `${locale}: "${word}"`).toContain(word);
      }
    }
    // A language the page has no words for: English words, and lang says so (numbers keep the locale).
    await t.request({ method: 'PUT', url: `/api/v1/estates/${other.estateId}/page`, key: b.key, body: { locale: 'ja-JP' } });
    const html = (await get(`/p/${other.slug}`)).body;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Available');
    await t.request({ method: 'PUT', url: `/api/v1/estates/${other.estateId}/page`, key: b.key, body: { locale: 'en-US' } });
  });

  it('contact and privacyPolicyUrl: stored, shown as a contact block and linked from the form; bad values refused naming the field', async () => {
    const put = (body: unknown, key = a.key) => t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, key, body });
    const contact = {
      name: 'Harbour Sales Office',
      phone: '+48 58 123 45 67',
      email: 'sales@harbour.example',
      address: 'Quay 1, Gdańsk',
      openingHours: 'Mon–Fri 9:00–17:00',
    };
    const ok = await put({ contact, privacyPolicyUrl: 'https://harbour.example/privacy' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ contact, privacyPolicyUrl: 'https://harbour.example/privacy' });
    const html = (await get(`/p/${seed.slug}`)).body;
    expect(html).toContain('<section class="contact" id="contact" aria-labelledby="contact-title">');
    expect(html).toContain('<a href="tel:+48581234567">+48 58 123 45 67</a>');
    expect(html).toContain('<a href="mailto:sales@harbour.example">sales@harbour.example</a>');
    expect(html).toContain('Mon–Fri 9:00–17:00');
    expect(html).toContain('<a href="https://harbour.example/privacy" rel="noopener noreferrer" target="_blank">How we use your data</a>');
    for (const [body, field] of [
      [{ contact: { phone: 'call me <maybe>' } }, 'phone'],
      [{ contact: { email: 'not-an-email' } }, 'email'],
      [{ contact: { fax: '123' } }, 'contact'],
      [{ privacyPolicyUrl: 'javascript:alert(1)' }, 'privacyPolicyUrl'],
    ] as const) {
      const res = await put(body);
      expect([400, 422], JSON.stringify(body)).toContain(res.statusCode);
      expect(res.json().message).toContain(field);
    }
    expect((await put({ contact })).statusCode).toBe(200);
    expect((await t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, key: b.key, body: { contact } })).statusCode).toBe(404);
    expect((await t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, body: { contact } })).statusCode).toBe(401);
    // null removes them.
    const cleared = await put({ contact: null, privacyPolicyUrl: null });
    expect(cleared.json()).toMatchObject({ contact: null, privacyPolicyUrl: null });
    expect((await get(`/p/${seed.slug}`)).body).not.toContain('id="contact"');
  });

  it('server and browser start at the same frame: the nearest angle to startingAngle (shared/frames.ts)', async () => {
    expect(startingIndex([0, 120, 240], 50)).toBe(0);
    expect(startingIndex([0, 120, 240], 70)).toBe(1);
    expect(startingIndex([0, 120, 240], 350)).toBe(0);
    expect(startingIndex([0, 120, 240], 60)).toBe(0);
    expect(startingIndex([], 0)).toBe(-1);
    const html = (await get(`/p/${seed.slug}`)).body;
    expect(html).toMatch(/<figure class="frame is-start"[^>]*data-angle="120"/);
    await t.request({ method: 'PATCH', url: `/api/v1/navigator/${seed.navigatorId}`, key: a.key, body: { options: { startingAngle: 50 } } });
    expect((await get(`/p/${seed.slug}`)).body).toMatch(/<figure class="frame is-start"[^>]*data-angle="0"/);
  });
});
