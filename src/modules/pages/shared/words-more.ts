import type { Catalogue } from './words.js';

/** German, French, Spanish, Italian, Dutch, Polish and Czech (DECISIONS "Languages"); English in words-en.ts. */
export const OTHER_LANGUAGES: Record<string, Catalogue> = {};
