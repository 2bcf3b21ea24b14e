/**
 * The page's own words (names and descriptions show as entered). One catalogue per language; a
 * message missing in a language falls back to English, message by message (DECISIONS "Languages").
 * Server side only: the browser gets the messages it needs written into the page (clientMessages).
 */
import { type Message, type Values, formatMessage } from './message.js';
import { EN, type Key } from './words-en.js';
import { OTHER_LANGUAGES } from './words-more.js';

export type { Key };
export type Catalogue = Partial<Record<Key, Message>>;

const CATALOGUES: Record<string, Catalogue> = { en: EN, ...OTHER_LANGUAGES };
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
  // The 360° viewer (client/viewer.ts)
  'panoramaView',
  'zoomIn',
  'zoomOut',
  'lookAround',
  'noWebgl',
] as const satisfies readonly Key[];

export function clientMessages(locale: string): Record<string, Message> {
  const messages = CATALOGUES[languageOf(locale)] ?? EN;
  return Object.fromEntries(CLIENT_KEYS.map((k) => [k, messages[k] ?? EN[k]]));
}
