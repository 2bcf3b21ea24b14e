import type { Apartment } from '../../../apartments/schemas.js';
import { shownPrice } from '../../render/format.js';
import type { PageData, RenderContext } from '../../render/types.js';
import type { Translate } from '../../shared/words.js';

/** JSON for a <script type="application/ld+json"> data block: `<` written as \u003c so no `</script>` can end it. */
export const jsonLdText = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** A schema.org Offer for a home whose price is shown, else null. */
export function offerOf(a: Apartment, url: string) {
  if (a.status === 'HIDDEN' || shownPrice(a, 'en-US') === null || a.priceCents === null || !a.currency) return null;
  return {
    '@type': 'Offer',
    name: a.name,
    url,
    price: (a.priceCents / 100).toFixed(2),
    priceCurrency: a.currency,
    availability: a.status === 'ACTIVE' ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
  };
}

/**
 * The page's description: the navigator's seoDescription, else the estate's description, else one made
 * from the facts (homes available, rooms, prices from) in the page's language. Never empty.
 */
export function describe(data: PageData, t: Translate, locale: string): string {
  const given = data.navigator?.seoDescription?.trim() || data.estate.description?.trim();
  if (given) return given.slice(0, 300);
  const available = data.apartments.filter((a) => a.status === 'ACTIVE');
  const parts = [`${data.estate.name}: ${t('homeDescription', { count: available.length })}`];
  const rooms = available.map((a) => a.apartmentData.rooms).filter((r): r is number => r !== undefined);
  if (rooms.length > 0) {
    const min = Math.min(...rooms);
    const max = Math.max(...rooms);
    parts.push(min === max ? t('roomsOne', { count: min }) : t('roomsRange', { min, max }));
  }
  const priced = available.filter((a) => shownPrice(a, locale) !== null).sort((a, b) => (a.priceCents ?? 0) - (b.priceCents ?? 0));
  const cheapest = priced[0] && shownPrice(priced[0], locale);
  if (cheapest) parts.push(t('pricesFrom', { price: cheapest }));
  return `${parts.join(', ')}.`;
}

/** `blocking="render"` (HTML's blocking attributes), which preact's types do not list yet. */
const BLOCKING_RENDER: Record<string, string> = { blocking: 'render' };

/** The <head> of the page and of a home's page. */
export function Head(props: {
  ctx: RenderContext;
  title: string;
  description: string;
  canonical: string;
  image: string | null;
  jsonLd: unknown;
  words: unknown;
  /**
   * The id of an element the first paint waits for (`<link rel="expect" blocking="render">`, Chromium 124+):
   * an empty marker after the sidebar's list, so the filters and the list's columns are laid out once, from
   * all their rows, not from the rows the parser had reached (a paint in mid-parse moved the columns: a
   * layout shift). A marker, not the sidebar itself: Chromium unblocks when the element is inserted.
   */
  paintAfter?: string | undefined;
}) {
  const { ctx } = props;
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{props.title}</title>
      <meta name="description" content={props.description} />
      {ctx.noindex ? <meta name="robots" content="noindex, nofollow" /> : null}
      <link rel="canonical" href={props.canonical} />
      <meta property="og:type" content="website" />
      <meta property="og:title" content={props.title} />
      <meta property="og:description" content={props.description} />
      <meta property="og:url" content={props.canonical} />
      {props.image ? <meta property="og:image" content={props.image} /> : null}
      <link rel="stylesheet" href={ctx.cssHref} />
      {props.paintAfter ? <link rel="expect" href={`#${props.paintAfter}`} {...BLOCKING_RENDER} /> : null}
      {ctx.themeCss ? <style>{ctx.themeCss}</style> : null}
      {ctx.scriptHref ? <script type="module" src={ctx.scriptHref} /> : null}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: JSON data block, '<' escaped as \u003c */}
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(props.jsonLd) }} />
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: JSON data block (the script's words), '<' escaped as \u003c */}
      <script type="application/json" id="page-words" dangerouslySetInnerHTML={{ __html: jsonLdText(props.words) }} />
    </head>
  );
}
