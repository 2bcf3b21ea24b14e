import { unprocessable } from '../../../errors.js';
import { MAX_EMBED_ORIGINS, type PutPageBody } from '../schemas.js';

/**
 * An embed origin as the CSP header writes it: scheme, host and port only (the browser compares
 * frame-ancestors by origin). Anything else (a path, a query, credentials, `*`, another scheme,
 * characters a header or a source list would read as syntax) is refused, never passed through.
 */
export function normaliseOrigin(value: string): string | undefined {
  const text = value.trim();
  if (!/^https?:\/\/[^\s;,'"]+$/i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return undefined;
  if (text.replace(/\/$/, '').toLowerCase() !== url.origin.toLowerCase()) return undefined;
  return url.origin;
}

/** The canonical BCP 47 tag (Intl's spelling), or undefined when `value` is not one. */
export function canonicalLocale(value: string): string | undefined {
  try {
    const [tag] = Intl.getCanonicalLocales(value);
    // Intl must format with it: a well-formed tag of a language no runtime knows falls back, which is fine.
    return tag && new Intl.NumberFormat(tag).resolvedOptions().locale ? tag : undefined;
  } catch {
    return undefined;
  }
}

/** Checks and canonicalises the free-form fields of a PUT; 422 naming each bad field. */
export function checkPageInput(input: PutPageBody): { embedOrigins?: string[]; locale?: string } {
  const problems: string[] = [];
  const out: { embedOrigins?: string[]; locale?: string } = {};
  if (input.embedOrigins !== undefined) {
    const origins: string[] = [];
    input.embedOrigins.forEach((value, i) => {
      const origin = normaliseOrigin(value);
      if (!origin) problems.push(`embedOrigins[${i}] must be an http(s) origin such as https://example.com (scheme, host and port; no path)`);
      else if (!origins.includes(origin)) origins.push(origin);
    });
    if (origins.length > MAX_EMBED_ORIGINS) problems.push(`embedOrigins holds at most ${MAX_EMBED_ORIGINS} origins`);
    out.embedOrigins = origins;
  }
  if (input.locale !== undefined) {
    const locale = canonicalLocale(input.locale);
    if (!locale) problems.push('locale must be a BCP 47 language tag such as en-US or pl-PL');
    else out.locale = locale;
  }
  if (problems.length > 0) throw unprocessable(`Validation failed: ${problems.join('; ')}`);
  return out;
}
