/**
 * The page's own words (names and descriptions show as entered). One catalogue per language; a
 * message missing in a language falls back to English, message by message (DECISIONS "Languages").
 * Server side only: the browser gets the messages it needs written into the page (clientMessages).
 */
import { type Message, type Values, formatMessage } from './message.js';
import { EN as EN_PAGE, type Key as PageKey } from './words-en.js';
import { LIST_EN, LIST_MORE, type ListKey } from './words-list.js';
import { OTHER_LANGUAGES } from './words-more.js';
import { NOTICES_EN, NOTICES_MORE, type NoticeKey } from './words-notices.js';

export type Key = PageKey | NoticeKey | ListKey;
export type Catalogue = Partial<Record<Key, Message>>;

/** English, every message (words-en.ts and words-notices.ts). */
const EN: Record<Key, Message> = { ...EN_PAGE, ...NOTICES_EN, ...LIST_EN };
const CATALOGUES: Record<string, Catalogue> = {
  en: EN,
  ...Object.fromEntries(
    Object.entries(OTHER_LANGUAGES).map(([language, words]) => [language, { ...words, ...NOTICES_MORE[language], ...LIST_MORE[language] }]),
  ),
};
export const LANGUAGES = Object.keys(CATALOGUES);

/** The catalogue's language for a locale (`de-DE` -> `de`), English when the page has none for it. */
export function languageOf(locale: string): string {
  const language = locale.split('-')[0]!.toLowerCase();
  return language in CATALOGUES ? language : 'en';
}

/** The `lang` of a page in `locale`: the locale when its words are in that language, else `en`. */
export const langOf = (locale: string) => (languageOf(locale) === locale.split('-')[0]!.toLowerCase() ? locale : 'en');

export type Translate = (key: Key, values?: Values) => string;

export function translator(locale: string): Translate {
  const messages = CATALOGUES[languageOf(locale)] ?? EN;
  return (key, values) => formatMessage(locale, messages[key], EN[key], values);
}

/** The messages the browser bundle uses, in the page's language (a JSON data block of the page). */
export const CLIENT_KEYS = [
  'homesCount',
  'homesOf',
  'viewOf',
  'close',
  'loading',
  'loadFailed',
  'saveHome',
  'imageViewer',
  'previousImage',
  'nextImage',
  'nOfTotal',
  'mapAround',
  'hideList',
  'showList',
  'shareFavourites',
  // The 360° viewer (components/panoramas/viewer.client.ts)
  'panoramaView',
  'zoomIn',
  'zoomOut',
  'lookAround',
  'noWebgl',
  'newTab',
  'unconfirmed',
  'linkCopied',
  'sharedFavourites',
  'saveShared',
] as const satisfies readonly Key[];

export function clientMessages(locale: string): Record<string, Message> {
  const messages = CATALOGUES[languageOf(locale)] ?? EN;
  return Object.fromEntries(CLIENT_KEYS.map((k) => [k, messages[k] ?? EN[k]]));
}

/**
 * The locale of a visitor's `Accept-Language` for a page that has none of its own (a 404): its first tag
 * whose language has a catalogue, else `en`.
 */
export function localeOfAcceptLanguage(header: string | undefined): string {
  for (const part of (header ?? '').slice(0, 200).split(',')) {
    const tag = part.split(';')[0]!.trim();
    if (/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(tag) && languageOf(tag) !== 'en') return tag;
    if (/^en\b/i.test(tag)) return 'en';
  }
  return 'en';
}
