import { type Message, type Values, formatMessage } from '../shared/message.js';

/** The script's words, in the page's language: the JSON block `#page-words` the server wrote (shared/words.ts CLIENT_KEYS). */
export type Words = (key: string, values?: Values) => string;

export function pageWords(): Words {
  let messages: Record<string, Message> = {};
  try {
    messages = JSON.parse(document.getElementById('page-words')?.textContent ?? '{}') as Record<string, Message>;
  } catch {
    // No words: the keys themselves (never seen on a page the server rendered).
  }
  const locale = document.body.dataset.locale ?? document.documentElement.lang;
  return (key, values) => formatMessage(locale, messages[key], key, values);
}
