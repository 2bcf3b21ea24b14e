import type { Apartment } from '../../apartments/schemas.js';
import { ApartmentDetails } from './apartment-details.js';
import { ApartmentList } from './apartment-list.js';
import { DownloadsSection } from './downloads.js';
import { shownPrice } from './format.js';
import { GallerySection } from './gallery.js';
import { InquiryForm } from './inquiry-form.js';
import { InvestmentSection } from './investment.js';
import { MapSection } from './map.js';
import { NavigatorSection, startingFrame } from './navigator.js';
import type { PageData, RenderContext } from './types.js';

/** JSON for a <script type="application/ld+json"> data block: `<` written as \u003c so no `</script>` can end it. */
const jsonLdText = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** schema.org: the development as a Residence, and an Offer for each apartment whose price is shown. */
function jsonLd(data: PageData, canonical: string, description: string | null) {
  const offers = data.apartments
    .filter((a) => a.status !== 'HIDDEN' && shownPrice(a, 'en-US') !== null && a.priceCents !== null && a.currency)
    .map((a) => ({
      '@type': 'Offer',
      name: a.name,
      url: `${canonical}#apartment-${a.id}`,
      price: (a.priceCents! / 100).toFixed(2),
      priceCurrency: a.currency,
      availability: a.status === 'ACTIVE' ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
    }));
  return {
    '@context': 'https://schema.org',
    '@type': 'Residence',
    name: data.estate.name,
    url: canonical,
    ...(description ? { description } : {}),
    ...(offers.length > 0 ? { offers } : {}),
  };
}

/** The og:image: the starting frame's largest variant under 1,300 px (social cards), else its src. */
function ogImage(data: PageData): string | null {
  const frame = data.navigator && startingFrame(data.navigator);
  if (!frame) return null;
  const variants = frame.asset.variants ?? [];
  const pick = [...variants].reverse().find((v) => v.width <= 1300) ?? variants[0];
  return pick?.src ?? frame.asset.src;
}

/** The whole page, sections in the order of docs/decisions.md. */
export function Page(props: { data: PageData; ctx: RenderContext }) {
  const { data, ctx } = props;
  const { settings, navigator } = data;
  const locale = settings.locale;
  const canonical = ctx.canonical ?? `${ctx.publicUrl}${ctx.path}`;
  const title = navigator?.seoTitle || data.estate.name;
  const description = navigator?.seoDescription || data.estate.description || null;
  const byId = new Map<string, Apartment>(data.apartments.map((a) => [a.id, a]));
  const visible = data.apartments.filter((a) => a.status !== 'HIDDEN');
  const about = ctx.askAbout ? (visible.find((a) => a.id === ctx.askAbout) ?? null) : null;
  const image = ogImage(data);
  const options = navigator?.options;
  return (
    <html lang={locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        {description ? <meta name="description" content={description.slice(0, 300)} /> : null}
        {ctx.noindex ? <meta name="robots" content="noindex, nofollow" /> : null}
        <link rel="canonical" href={canonical} />
        <meta property="og:type" content="website" />
        <meta property="og:title" content={title} />
        {description ? <meta property="og:description" content={description.slice(0, 300)} /> : null}
        <meta property="og:url" content={canonical} />
        {image ? <meta property="og:image" content={image} /> : null}
        <link rel="stylesheet" href={ctx.cssHref} />
        {ctx.themeCss ? <style>{ctx.themeCss}</style> : null}
        {ctx.scriptHref ? <script type="module" src={ctx.scriptHref} /> : null}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: JSON data block, '<' escaped as \u003c */}
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(jsonLd(data, canonical, description)) }} />
      </head>
      <body
        data-estate-id={data.estate.id}
        data-estate-slug={data.estate.slug}
        data-locale={locale}
        data-embed-origins={data.settings.embedOrigins.join(' ') || undefined}
      >
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="page-header">
          <h1>{data.estate.name}</h1>
          {description ? <p class="lead">{description}</p> : null}
        </header>
        <main id="main">
          {navigator && !options?.noApartmentsViewer ? (
            <NavigatorSection navigator={navigator} apartments={byId} locale={locale} heading="Explore the project" />
          ) : null}
          {settings.showApartments ? (
            <ApartmentList
              path={ctx.path}
              apartments={data.apartments}
              filter={ctx.filter}
              hideFilters={options?.hideFilters}
              hideColumns={options?.hideColumns}
              locale={locale}
            />
          ) : null}
          {settings.showApartments && visible.length > 0 ? (
            <section class="details" id="details" aria-labelledby="details-title">
              <h2 id="details-title">Home details</h2>
              {visible.map((a) => (
                <ApartmentDetails key={a.id} apartment={a} assets={data.assets} locale={locale} path={ctx.path} />
              ))}
            </section>
          ) : null}
          {data.investment ? <InvestmentSection doc={data.investment} locale={locale} /> : null}
          {data.gallery ? <GallerySection doc={data.gallery} /> : null}
          {data.map ? <MapSection doc={data.map} /> : null}
          {data.downloads ? <DownloadsSection doc={data.downloads} locale={locale} /> : null}
          {settings.showInquiryForm ? <InquiryForm path={ctx.path} form={ctx.form} about={about} /> : null}
        </main>
      </body>
    </html>
  );
}

/** The body of every 404 of /p/: the same for a page that is off and a slug that does not exist. */
export function NotFoundPage(props: { cssHref: string }) {
  return <NoticePage cssHref={props.cssHref} title="Page not found" message="There is no published project at this address." />;
}

/**
 * A page of /p/ that says why it cannot answer now (too many inquiries from one connection, the
 * service briefly unavailable): a visitor without JavaScript gets words, not an API's JSON. The
 * message is the alert the inline form shows in place when JavaScript runs.
 */
export function NoticePage(props: {
  cssHref: string;
  title: string;
  message: string;
  hint?: string | undefined;
  back?: { href: string; label: string } | undefined;
}) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{props.title}</title>
        <link rel="stylesheet" href={props.cssHref} />
      </head>
      <body>
        <main id="main">
          <h1>{props.title}</h1>
          <p role="alert" id="page-notice">
            {props.message}
          </p>
          {props.hint ? <p>{props.hint}</p> : null}
          {props.back ? (
            <p>
              <a href={props.back.href}>{props.back.label}</a>
            </p>
          ) : null}
        </main>
      </body>
    </html>
  );
}
