import type { Apartment } from '../../apartments/schemas.js';
import { area, integer, shownPrice, statusLabel } from './format.js';
import { ResponsiveImage, THUMB_SIZES } from './image.js';
import type { Asset } from './types.js';

function Facts(props: { apartment: Apartment; locale: string }) {
  const { apartment: a, locale } = props;
  const d = a.apartmentData;
  const facts: Array<[string, string | null]> = [
    ['Status', statusLabel(a.status)],
    ['Price', shownPrice(a, locale) ?? 'On request'],
    ['Area', area(a, locale)],
    ['Rooms', integer(d.rooms, locale)],
    ['Bedrooms', integer(d.bedrooms, locale)],
    ['Bathrooms', integer(d.bathrooms, locale)],
    ['Floor', integer(d.floor, locale)],
    ['Building', a.building?.name ?? null],
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

/** Links to files elsewhere (floor plans are URLs the partner stored): links, never fetched by the page. */
function Links(props: { label: string; urls: string[] }) {
  if (props.urls.length === 0) return null;
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

/** One apartment's details, anchored at #apartment-{id}; never rendered for a HIDDEN apartment. */
export function ApartmentDetails(props: { apartment: Apartment; assets: Map<string, Asset>; locale: string; path: string }) {
  const { apartment: a } = props;
  const images = a.assetsIds.map((id) => props.assets.get(id)).filter((x): x is Asset => x !== undefined);
  const links = [...a.floorPlanUrls, ...a.floorPlanPreviewUrls, ...a.floorPlan3dPreviewUrls];
  return (
    <article
      class="apartment"
      id={`apartment-${a.id}`}
      data-apartment-id={a.id}
      data-status={a.status.toLowerCase()}
      aria-labelledby={`apartment-${a.id}-title`}
    >
      <h3 id={`apartment-${a.id}-title`}>{a.name}</h3>
      <Facts apartment={a} locale={props.locale} />
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
      {links.length > 0 || a.virtualTourUrl || a.externalUrl ? (
        <ul class="links">
          <Links label="Floor plan" urls={a.floorPlanUrls} />
          <Links label="Floor plan preview" urls={a.floorPlanPreviewUrls} />
          <Links label="3D floor plan" urls={a.floorPlan3dPreviewUrls} />
          {a.virtualTourUrl ? (
            <li>
              <a href={a.virtualTourUrl} rel="noopener noreferrer nofollow" target="_blank">
                Virtual tour
              </a>
            </li>
          ) : null}
          {a.externalUrl ? (
            <li>
              <a href={a.externalUrl} rel="noopener noreferrer nofollow" target="_blank">
                More about this home
              </a>
            </li>
          ) : null}
        </ul>
      ) : null}
      <p>
        <a class="ask" href={`${props.path}?apartment=${a.id}#inquiry`} data-apartment-id={a.id}>
          Ask about this home
        </a>
      </p>
    </article>
  );
}
