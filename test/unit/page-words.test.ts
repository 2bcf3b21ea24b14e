import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../src/modules/pages/shared/message.js';
import { EN, type Key } from '../../src/modules/pages/shared/words-en.js';
import { OTHER_LANGUAGES } from '../../src/modules/pages/shared/words-more.js';
import { NOTICES_EN, NOTICES_MORE } from '../../src/modules/pages/shared/words-notices.js';
import { LANGUAGES, clientMessages, langOf, languageOf, translator } from '../../src/modules/pages/shared/words.js';

// Words the page never shows in another language (only on English-only notice pages, or hints no page uses yet).
const ENGLISH_ONLY = new Set<Key>(['notFound', 'notFoundText', 'rotateHint', 'homeTitle']);

describe('the page’s words (shared/words.ts)', () => {
  it('eight languages, each with every message the page shows', () => {
    expect(LANGUAGES.sort()).toEqual(['cs', 'de', 'en', 'es', 'fr', 'it', 'nl', 'pl']);
    for (const [language, catalogue] of Object.entries(OTHER_LANGUAGES)) {
      const missing = (Object.keys(EN) as Key[]).filter((k) => !ENGLISH_ONLY.has(k) && catalogue[k] === undefined);
      expect(missing, language).toEqual([]);
      // Same placeholders as English.
      for (const [key, message] of Object.entries(catalogue)) {
        const names = (m: unknown) => [...new Set([...JSON.stringify(m).matchAll(/\{(\w+)\}/g)].map((x) => x[1]))].sort();
        expect(names(message), `${language}.${key}`).toEqual(names(EN[key as Key]));
      }
    }
  });

  it('plural rules per language, English as the fallback message by message, lang matching the words', () => {
    const pl = translator('pl-PL');
    expect(pl('homesCount', { count: 1 })).toBe('1 mieszkanie');
    expect(pl('homesCount', { count: 3 })).toBe('3 mieszkania');
    expect(pl('homesCount', { count: 5 })).toBe('5 mieszkań');
    expect(translator('cs-CZ')('homesCount', { count: 2 })).toBe('2 byty');
    expect(translator('de-DE')('homesOf', { shown: 1234, total: 5000 })).toBe('1.234 von 5.000 Wohnungen');
    expect(translator('de-DE')('homeTitle', { home: 'A1', estate: 'Park' })).toBe('A1: Park');
    expect(translator('en-GB')('ACTIVE')).toBe('Available');
    expect(languageOf('fr-CA')).toBe('fr');
    expect(languageOf('ja-JP')).toBe('en');
    expect(langOf('de-DE')).toBe('de-DE');
    expect(langOf('ja-JP')).toBe('en');
    expect(langOf('en-US')).toBe('en-US');
    expect(formatMessage('en', undefined, { one: '{count} x', other: '{count} xs' }, { count: 2 })).toBe('2 xs');
    expect(Object.keys(clientMessages('de-DE'))).toContain('homesCount');
    expect(clientMessages('de-DE').close).toBe('Schließen');
  });

  it('the form errors and notices (words-notices.ts): every message in every language, same placeholders, the 404 too', () => {
    expect(Object.keys(NOTICES_MORE).sort()).toEqual(['cs', 'de', 'es', 'fr', 'it', 'nl', 'pl']);
    const english: Record<string, unknown> = { ...NOTICES_EN, notFound: EN.notFound, notFoundText: EN.notFoundText };
    const names = (m: unknown) => [...new Set([...JSON.stringify(m).matchAll(/\{(\w+)\}/g)].map((x) => x[1]))].sort();
    for (const [language, catalogue] of Object.entries(NOTICES_MORE)) {
      expect(
        Object.keys(english).filter((k) => catalogue[k as keyof typeof catalogue] === undefined),
        language,
      ).toEqual([]);
      for (const [key, message] of Object.entries(catalogue)) expect(names(message), `${language}.${key}`).toEqual(names(english[key]));
    }
    expect(translator('pl-PL')('waitSeconds', { count: 5 })).toBe('5 sekund');
    expect(translator('de-DE')('notFound')).toBe('Seite nicht gefunden');
    expect(translator('fr-FR')('errEmail')).toBe('Saisissez une adresse e-mail comme nom@exemple.fr.');
  });
});
