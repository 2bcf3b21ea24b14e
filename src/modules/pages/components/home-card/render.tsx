import type { Apartment } from '../../../apartments/schemas.js';
import { area, homeHref, integer, shownPrice } from '../../render/format.js';
import type { Asset } from '../../render/types.js';
import type { Translate } from '../../shared/words.js';
import { ResponsiveImage, THUMB_SIZES } from '../image/render.js';
import { FavouriteButton } from '../sidebar/render.js';

export interface CardProps {
  apartment: Apartment;
  locale: string;
  t: Translate;
  /** /p/{slug} */
  path: string;
  /** On the home's own page: no "Details" link, an h1-level page around it. */
  onOwnPage?: boolean;
  /** favouritesEnabled: the card's Save toggle. */
  favourites?: boolean | undefined;
}

/** The facts of a home (only those it has), in the page's words and number formats. */
export function Facts(props: { apartment: Apartment; locale: string; t: Translate }) {
  const { apartment: a, locale, t } = props;
  const d = a.apartmentData;
  const facts: Array<[string, string | null]> = [
    [t('rooms'), integer(d.rooms, locale)],
    [t('area'), area(a, locale)],
    [t('floor'), integer(d.floor, locale)],
    [t('building'), a.building?.name ?? null],
    [t('bedrooms'), integer(d.bedrooms, locale)],
    [t('bathrooms'), integer(d.bathrooms, locale)],
  ];
  return (
    <dl class="facts">
      {facts
        .filter((f): f is [string, string] => f[1] !== null)
        .map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

/**
 * A home's card: name, status in the buyer's words (and its colour, never alone), price, facts, floor
 * plans, "Details" (its own page) and "Ask about this home". The same markup on the home's page and, with
 * JavaScript, in the main page's panel (fetched as `?part=card`), so there is one card.
 */
export function HomeCard(props: CardProps) {
  const { apartment: a, t, path } = props;
  const status = a.status.toLowerCase();
  const titleId = `home-${a.id}-title`;
  const Heading = props.onOwnPage ? 'h1' : 'h2';
  const plans = a.floorPlanUrls;
  return (
    <section class="home-card" id={`home-${a.id}`} aria-labelledby={titleId} data-home-card data-apartment-id={a.id} data-status={status}>
      <Heading id={titleId} tabIndex={-1}>
        {a.name}
      </Heading>
      {props.favourites ? <FavouriteButton id={a.id} name={a.name} t={t} /> : null}
      <p class="card-summary">
        <span class={`status status-${status}`}>{t(a.status as 'ACTIVE')}</span>
        <span class="price">{shownPrice(a, props.locale) ?? t('onRequest')}</span>
      </p>
      <Facts apartment={a} locale={props.locale} t={t} />
      <ul class="card-actions">
        {props.onOwnPage ? null : (
          <li>
            <a class="details" href={homeHref(path, a.id)}>
              {t('details')}
            </a>
          </li>
        )}
        {plans.map((url, i) => (
          <li key={url}>
            <a href={url} rel="noopener noreferrer nofollow" target="_blank">
              {plans.length === 1 ? t('floorPlan') : `${t('floorPlan')} ${i + 1}`}
            </a>
          </li>
        ))}
        <li>
          <a class="ask" href={`${homeHref(path, a.id)}#inquiry`} data-apartment-id={a.id}>
            {t('askAbout')}
          </a>
        </li>
      </ul>
    </section>
  );
}

/** Links to files elsewhere (floor plans are URLs the partner stored): links, never fetched by the page. */
function Links(props: { label: string; urls: string[] }) {
  return (
    <>
      {props.urls.map((url, i) => (
        <li key={url}>
          <a href={url} rel="noopener noreferrer nofollow" target="_blank">
            {props.urls.length === 1 ? props.label : `${props.label} ${i + 1}`}
          </a>
        </li>
      ))}
    </>
  );
}

/** What a home's own page adds to its card: the description, its images and the other links. */
export function HomeMore(props: { apartment: Apartment; assets: Map<string, Asset>; t: Translate }) {
  const { apartment: a, t } = props;
  const images = a.assetsIds.map((id) => props.assets.get(id)).filter((x): x is Asset => x !== undefined);
  const links = a.floorPlanPreviewUrls.length + a.floorPlan3dPreviewUrls.length;
  return (
    <div class="home-more">
      {a.description ? <p class="description">{a.description}</p> : null}
      {images.length > 0 ? (
        <ul class="thumbs">
          {images.map((asset) => (
            <li key={asset.id}>
              {asset.mimeType.startsWith('image/') ? (
                <a href={asset.src}>
                  <ResponsiveImage asset={asset} alt={`${a.name}: ${asset.name}`} sizes={THUMB_SIZES} />
                </a>
              ) : (
                <a href={asset.src}>{asset.name}</a>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {links > 0 || a.virtualTourUrl || a.externalUrl ? (
        <ul class="links">
          <Links label={t('floorPlanPreview')} urls={a.floorPlanPreviewUrls} />
          <Links label={t('floorPlan3d')} urls={a.floorPlan3dPreviewUrls} />
          {a.virtualTourUrl ? <Links label={t('virtualTour')} urls={[a.virtualTourUrl]} /> : null}
          {a.externalUrl ? <Links label={t('moreAbout')} urls={[a.externalUrl]} /> : null}
        </ul>
      ) : null}
    </div>
  );
}
