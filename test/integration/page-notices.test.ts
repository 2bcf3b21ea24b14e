import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type SeededPage, formBody, seedPage } from '../helpers/page-seed.js';

// The words still in English after the page's own (issue 34): the inquiry form's errors, the 404 of a
// home and of an unknown page, and the notice past the inquiry limit, in the page's language.
describe("the form's errors and the notices in the page's language (issue 34)", () => {
  let t: TestApp;
  let a: TestOrg;
  let seed: SeededPage;
  const LOCALES = [
    ['de-DE', 'Geben Sie eine E-Mail-Adresse', 'Seite nicht gefunden', 'Von Ihrer Verbindung wurden zu viele Anfragen'],
    ['fr-FR', 'Saisissez une adresse e-mail', 'Page introuvable', 'Trop de demandes ont été envoyées'],
    ['pl-PL', 'Podaj adres e-mail', 'Nie znaleziono strony', 'Z Twojego połączenia wysłano zbyt wiele zapytań'],
  ] as const;
  // The English of those states: none of it may show on a page in another language.
  const ENGLISH = [
    'Enter',
    'your name',
    'e-mail address such as',
    'Page not found',
    'There is no published project',
    'Please wait',
    'Too many',
    'inquiries',
    'send yours again',
    'Back to the project page',
    'Back button',
    'seconds',
    'minute',
    'a moment',
  ];
  const text = (html: string) =>
    html
      .replace(/<(script|style|head)[^>]*>[\s\S]*?<\/\1>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
  const english = (html: string, entered: string[] = []) => {
    let said = text(html);
    for (const e of entered) said = said.split(e).join(' ');
    return ENGLISH.filter((w) => new RegExp(`\\b${w}\\b`).test(said));
  };
  const post = (body: string) =>
    t.app.inject({ method: 'POST', url: `/p/${seed.slug}/inquiry`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body });
  const setLocale = async (locale: string) => {
    const put = await t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, key: a.key, body: { locale } });
    expect(put.statusCode).toBe(200);
    // Read once: the notices take the language of the page as last read.
    expect((await t.request({ method: 'GET', url: `/p/${seed.slug}`, headers: {} })).statusCode).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_INQUIRY_MAX: '4', RATE_LIMIT_WINDOW_MS: '600000' } });
    a = await t.createOrg('Notices A');
    seed = await seedPage(t, a.id, a.key, 4);
    const res = await t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, key: a.key, body: { enabled: true } });
    expect(res.statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  it('the form errors, a 404 of a home and of an unknown page, then the notice past the limit: no English word, lang matching', async () => {
    // Everything the partner entered shows as entered: taken out before looking for English.
    const entered = [seed.slug, 'Harbour View', ...seed.apartments.map((x) => x.name), ...seed.downloads, ...seed.captions, ...seed.pois];
    // English first: the words the test looks for are the ones the page says in English.
    await setLocale('en-GB');
    const en = await post(formBody({ name: '', email: 'ada@nowhere' }));
    expect(en.statusCode).toBe(422);
    expect(text(en.body)).toContain('Enter an e-mail address such as name@example.com.');
    for (const [locale, emailError, notFound] of LOCALES) {
      await setLocale(locale);
      const bad = await post(formBody({ name: '', email: 'ada@nowhere' }));
      expect(bad.statusCode, locale).toBe(422);
      expect(bad.body).toContain(`<html lang="${locale}">`);
      expect(bad.body).toMatch(/id="inquiry-email-error">[^<]+</);
      expect(text(bad.body)).toContain(emailError);
      const formPart = bad.body.slice(bad.body.indexOf('id="inquiry"'));
      expect(english(formPart, entered), `${locale}: the form with errors`).toEqual([]);
      // A home the page does not list: the 404 in the page's language.
      const missing = await t.request({ method: 'GET', url: `/p/${seed.slug}/homes/00000000-0000-4000-8000-000000000000`, headers: {} });
      expect(missing.statusCode).toBe(404);
      // One 404 body per language: lang names the language of its words.
      expect(missing.body).toContain(`<html lang="${locale.slice(0, 2)}">`);
      expect(text(missing.body)).toContain(notFound);
      expect(english(missing.body), `${locale}: a home's 404`).toEqual([]);
      // An unknown page has no language of its own: the visitor's.
      const unknown = await t.request({ method: 'GET', url: '/p/no-such-page-here', headers: { 'accept-language': `${locale},en;q=0.5` } });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain(`<html lang="${locale.slice(0, 2)}">`);
      expect(english(unknown.body), `${locale}: an unknown page's 404`).toEqual([]);
    }
    // The limit (4 posts in the window) is spent: each further post is the notice, in the page's language.
    for (const [locale, , , tooMany] of LOCALES) {
      await setLocale(locale);
      const limited = await post(formBody({ name: 'Ada', email: 'ada@example.com' }));
      expect(limited.statusCode, locale).toBe(429);
      expect(limited.body).toContain(`<html lang="${locale}">`);
      expect(text(limited.body)).toContain(tooMany);
      expect(english(limited.body, entered), `${locale}: too many inquiries`).toEqual([]);
    }
    await setLocale('en-GB');
    const limited = await post(formBody({ name: 'Ada', email: 'ada@example.com' }));
    expect(text(limited.body)).toMatch(/Too many inquiries were sent from your connection\. Please wait (\d+ seconds|\d+ minutes?) and send yours again\./);
  });

  it('GET /p/{slug}/embed.json: the origins that may frame the page, open to any origin; 404 without a published page', async () => {
    const get = (slug: string) => t.app.inject({ method: 'GET', url: `/p/${slug}/embed.json`, headers: { origin: 'https://agency.example' } });
    const any = await get(seed.slug);
    expect(any.statusCode).toBe(200);
    expect(any.headers['access-control-allow-origin']).toBe('*');
    expect(any.json()).toEqual({ embedOrigins: [] });
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/estates/${seed.estateId}/page`,
      key: a.key,
      body: { embedOrigins: ['https://agency.example/'] },
    });
    expect(put.statusCode).toBe(200);
    expect((await get(seed.slug)).json()).toEqual({ embedOrigins: ['https://agency.example'] });
    expect((await get('no-such-page-here')).statusCode).toBe(404);
    await t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, key: a.key, body: { enabled: false } });
    expect((await get(seed.slug)).statusCode).toBe(404);
  });
});
