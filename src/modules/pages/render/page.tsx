import type { Apartment } from '../../apartments/schemas.js';
import { ContactSection } from '../components/contact/render.js';
import { DownloadsSection } from '../components/downloads/render.js';
import { GallerySection } from '../components/gallery/render.js';
import { Head, describe, offerOf } from '../components/head/render.js';
import { HomeCard, HomeMore } from '../components/home-card/render.js';
import { InquiryForm } from '../components/inquiry-form/render.js';
import { InvestmentSection } from '../components/investment/render.js';
import { MapSection } from '../components/map/render.js';
import { NavigatorSection, startingFrame } from '../components/navigator/render.js';
import { PanoramasSection } from '../components/panoramas/render.js';
import { Sidebar } from '../components/sidebar/render.js';
import { filterQuery } from '../shared/filter.js';
import { backHref, viewChain } from '../shared/nested.js';
import type { ViewerPanorama } from '../shared/panorama.js';
import { type Translate, clientMessages } from '../shared/words.js';
import { homeHref } from './format.js';
import type { PageData, RenderContext } from './types.js';

/** The og:image: the starting frame's largest variant under 1,300 px (social cards), else its src. */
function ogImage(data: PageData): string | null {
  const frame = data.navigator && startingFrame(data.navigator);
  if (!frame) return null;
  const variants = frame.asset.variants ?? [];
  const pick = [...variants].reverse().find((v) => v.width <= 1300) ?? variants[0];
  return pick?.src ?? frame.asset.src;
}

/** Homes have their own pages and cards while the page lists them (showApartments, and not noApartmentsViewer). */
export const listsHomes = (data: PageData) => data.settings.showApartments && !data.navigator?.options.noApartmentsViewer;

function Body(props: { data: PageData; ctx: RenderContext; children: preact.ComponentChildren }) {
  const { data, ctx } = props;
  return (
    <body
      data-estate-id={data.estate.id}
      data-estate-slug={data.estate.slug}
      data-path={ctx.path}
      data-locale={data.settings.locale}
      data-embed-origins={data.settings.embedOrigins.join(' ') || undefined}
    >
      <a class="skip" href="#main">
        {ctx.t('skip')}
      </a>
      {props.children}
    </body>
  );
}

/** The add-ons and the form, in the order of docs/decisions.md. */
function Addons(props: { data: PageData; ctx: RenderContext; about: Apartment | null }) {
  const { data, ctx } = props;
  const locale = data.settings.locale;
  return (
    <>
      {data.investment ? <InvestmentSection doc={data.investment} locale={locale} t={ctx.t} /> : null}
      {data.gallery ? <GallerySection doc={data.gallery} t={ctx.t} /> : null}
      {data.map ? <MapSection doc={data.map} t={ctx.t} /> : null}
      {data.downloads ? <DownloadsSection doc={data.downloads} locale={locale} t={ctx.t} /> : null}
      {data.settings.contact ? <ContactSection contact={data.settings.contact} t={ctx.t} /> : null}
      {data.settings.showInquiryForm ? (
        <InquiryForm path={ctx.path} form={ctx.form} about={props.about} t={ctx.t} privacyPolicyUrl={data.settings.privacyPolicyUrl} />
      ) : null}
    </>
  );
}

/** The whole page: the render and the sidebar side by side (from 1024 px), then the add-ons and the form. */
export function Page(props: { data: PageData; ctx: RenderContext }) {
  const { data, ctx } = props;
  const { settings, navigator } = data;
  const { t } = ctx;
  const locale = settings.locale;
  const canonical = ctx.canonical ?? `${ctx.publicUrl}${ctx.path}`;
  const title = navigator?.seoTitle || data.estate.name;
  const description = describe(data, t, locale);
  const byId = new Map<string, Apartment>(data.apartments.map((a) => [a.id, a]));
  const listing = listsHomes(data);
  const visible = data.apartments.filter((a) => a.status !== 'HIDDEN');
  const about = ctx.askAbout ? (visible.find((a) => a.id === ctx.askAbout) ?? null) : null;
  // Each home's Offer is on its own page (issue 34's budget: 200 bytes a home here); this names the estate.
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Residence',
    name: data.estate.name,
    url: canonical,
    description,
  };
  return (
    <html lang={ctx.lang}>
      <Head
        ctx={ctx}
        title={title}
        description={description}
        canonical={canonical}
        image={ogImage(data)}
        jsonLd={jsonLd}
        words={clientMessages(locale)}
        paintAfter={listing ? 'apartments-end' : undefined}
      />
      <Body data={data} ctx={ctx}>
        <header class="page-header">
          <h1>{data.estate.name}</h1>
          {navigator?.seoDescription || data.estate.description ? <p class="lead">{description}</p> : null}
        </header>
        <main id="main">
          <div class={listing ? 'viewer has-sidebar' : 'viewer'}>
            {navigator ? (
              <NavigatorSection
                navigator={navigator}
                apartments={byId}
                locale={locale}
                t={t}
                homesPath={listing ? ctx.path : null}
                heading={t('explore')}
                label={t('projectView')}
                name={navigator.options.navigatorName || data.estate.name}
                sidebarToggle={listing && !navigator.options.disableHidingSidebar}
                view={{ chain: viewChain(navigator, ctx.view), back: (parent, top) => backHref(ctx.path, filterQuery(ctx.filter), parent, top) }}
                frameId={ctx.frame}
                query={filterQuery(ctx.filter)}
                allShapes={ctx.noindex}
              />
            ) : null}
            {listing ? (
              <Sidebar
                path={ctx.path}
                apartments={data.apartments}
                buildings={data.estate.buildings}
                filter={ctx.filter}
                hideFilters={navigator?.options.hideFilters}
                hideColumns={navigator?.options.hideColumns}
                locale={locale}
                t={t}
                favourites={navigator?.options.favouritesEnabled}
              />
            ) : null}
          </div>
          <Addons data={data} ctx={ctx} about={about} />
        </main>
      </Body>
    </html>
  );
}

/** A home's own page (GET /p/{slug}/homes/{id}): its card, description, images, panoramas, and the form about it. */
export function HomePage(props: { data: PageData; ctx: RenderContext; home: Apartment; panoramas?: ViewerPanorama[] | undefined }) {
  const { data, ctx, home } = props;
  const { t } = ctx;
  const locale = data.settings.locale;
  const canonical = `${ctx.publicUrl}${homeHref(ctx.path, home.id)}`;
  const title = t('homeTitle', { home: home.name, estate: data.estate.name });
  const description = (home.description?.trim() || describe(data, t, locale)).slice(0, 300);
  const offer = offerOf(home, canonical);
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Apartment',
    name: home.name,
    url: canonical,
    description,
    ...(home.apartmentData.rooms !== undefined ? { numberOfRooms: home.apartmentData.rooms } : {}),
    ...(offer ? { offers: offer } : {}),
  };
  const ctxHere = { ...ctx, form: ctx.form.values.apartmentIds ? ctx.form : { ...ctx.form, values: { ...ctx.form.values, apartmentIds: [home.id] } } };
  return (
    <html lang={ctx.lang}>
      <Head ctx={ctx} title={title} description={description} canonical={canonical} image={null} jsonLd={jsonLd} words={clientMessages(locale)} />
      <Body data={data} ctx={ctx}>
        <header class="page-header">
          <p class="back">
            <a href={ctx.path}>{`‹ ${t('allHomes')}: ${data.estate.name}`}</a>
          </p>
        </header>
        <main id="main" class="home-page">
          <HomeCard apartment={home} locale={locale} t={t} path={ctx.path} onOwnPage favourites={data.navigator?.options.favouritesEnabled} />
          <HomeMore apartment={home} assets={data.assets} t={t} />
          <PanoramasSection panoramas={props.panoramas ?? []} viewerSrc={ctx.viewerHref} t={t} />
          {data.settings.contact ? <ContactSection contact={data.settings.contact} t={t} /> : null}
          {data.settings.showInquiryForm ? (
            <InquiryForm path={ctx.path} form={ctxHere.form} about={home} t={t} privacyPolicyUrl={data.settings.privacyPolicyUrl} />
          ) : null}
        </main>
      </Body>
    </html>
  );
}

/** The body of every 404 of /p/: the same for a page that is off and a slug that does not exist. */
export function NotFoundPage(props: { cssHref: string; t: Translate; lang: string }) {
  return <NoticePage cssHref={props.cssHref} lang={props.lang} title={props.t('notFound')} message={props.t('notFoundText')} />;
}

/**
 * A page of /p/ that says why it cannot answer now (too many inquiries from one connection, the
 * service briefly unavailable): a visitor without JavaScript gets words, not an API's JSON. The
 * message is the alert the inline form shows in place when JavaScript runs.
 */
export function NoticePage(props: {
  cssHref: string;
  lang: string;
  title: string;
  message: string;
  hint?: string | undefined;
  back?: { href: string; label: string } | undefined;
}) {
  return (
    <html lang={props.lang}>
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
