import { formatHex, formatRgb, parse } from 'culori';

/**
 * Theme colours go into the page's CSS, so a value is parsed (culori, a maintained CSS Color 4
 * parser) and the service writes its own spelling of the colour: `#rrggbb`, or `rgba(r, g, b, a)`
 * when it is not opaque. Nothing of the client's text is kept, so `red;}body{display:none}` cannot
 * reach a stylesheet: it does not parse and is refused.
 * Accepted: hex (3, 4, 6, 8 digits), rgb()/rgba(), hsl()/hsla() and named colours (as DECISIONS say);
 * culori's other spaces (lab(), oklch(), color(), hwb()) are refused.
 */
const SPELLING = /^(#[0-9a-f]+|rgba?\(.*\)|hsla?\(.*\)|[a-z]+)$/i;

/** The colour as the service stores it, or undefined when `value` is not an accepted CSS colour. */
export function normaliseColour(value: string): string | undefined {
  const text = value.trim();
  if (!SPELLING.test(text)) return undefined;
  let colour: ReturnType<typeof parse>;
  try {
    colour = parse(text);
  } catch {
    // culori 4.0 throws on some malformed modern syntax (`rgb(1e 0)`; found by the fuzz suite).
    return undefined;
  }
  if (!colour || (colour.mode !== 'rgb' && colour.mode !== 'hsl')) return undefined;
  const channels = colour.mode === 'rgb' ? [colour.r, colour.g, colour.b] : [colour.h === undefined ? 0 : colour.h, colour.s, colour.l];
  const alpha = colour.alpha ?? 1;
  if (![...channels, alpha].every(Number.isFinite)) return undefined;
  return alpha >= 1 ? formatHex(colour) : formatRgb(colour);
}
