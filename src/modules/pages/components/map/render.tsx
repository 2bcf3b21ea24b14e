import { sanitizeSectionHtml } from '../../../addons/investment/sanitize.js';
import type { MapDocument } from '../../../addons/map/schemas.js';
import type { Key, Translate } from '../../shared/words.js';

const VIEW = 400;
const RADIUS = 180;

/** Points of interest placed around the project (the centre), north up, scaled to the farthest one. */
function Positions(props: { doc: MapDocument; t: Translate }) {
  const { doc } = props;
  if (doc.centerLat === null || doc.centerLng === null || doc.pois.length === 0) return null;
  const cLat = doc.centerLat;
  const cLng = doc.centerLng;
  const cos = Math.cos((cLat * Math.PI) / 180);
  const points = doc.pois.map((poi) => ({ poi, x: (poi.lng - cLng) * cos, y: -(poi.lat - cLat) }));
  const far = Math.max(...points.map((p) => Math.hypot(p.x, p.y)), 1e-9);
  const scale = RADIUS / far;
  const round = (n: number) => Math.round(n * 10) / 10;
  return (
    <svg class="poi-map" viewBox={`0 0 ${VIEW} ${VIEW}`} role="img" aria-labelledby="map-svg-title">
      <title id="map-svg-title">{props.t('poiAround')}</title>
      <circle class="project" cx={VIEW / 2} cy={VIEW / 2} r={8} />
      {points.map(({ poi, x, y }) => {
        const cx = round(VIEW / 2 + x * scale);
        const cy = round(VIEW / 2 + y * scale);
        // Labelled in place (name and distance), to the left of points on the right half so they stay inside.
        const right = cx > VIEW / 2;
        const text = poi.distanceLabel ? `${poi.label} (${poi.distanceLabel})` : poi.label;
        return (
          <g key={poi.id} class={`poi poi-${poi.category.toLowerCase()}`} data-poi-id={poi.id}>
            <circle cx={cx} cy={cy} r={5} />
            <text x={right ? cx - 9 : cx + 9} y={cy + 4} text-anchor={right ? 'end' : 'start'} class="poi-label">
              {text}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/**
 * The map add-on without a map: points of interest by category with their distances, and their
 * positions drawn around the project. No tile is requested until the visitor presses "Show map" (the
 * browser code reads the tile source from the button's data attributes); the attribution is here.
 */
export function MapSection(props: { doc: MapDocument; t: Translate }) {
  const { doc, t } = props;
  const categories = [...new Set(doc.pois.map((p) => p.category))];
  return (
    <section class="addon map" id="map" aria-labelledby="map-title">
      <h2 id="map-title">{t('neighbourhood')}</h2>
      <Positions doc={doc} t={t} />
      {categories.map((category) => (
        <section key={category} class="poi-category" data-category={category.toLowerCase()} aria-labelledby={`map-${category.toLowerCase()}`}>
          <h3 id={`map-${category.toLowerCase()}`}>{t(category as Key)}</h3>
          <ul>
            {doc.pois
              .filter((p) => p.category === category)
              .map((poi) => (
                <li key={poi.id} data-poi-id={poi.id}>
                  {poi.label}
                  {poi.distanceLabel ? <span class="distance"> {poi.distanceLabel}</span> : null}
                </li>
              ))}
          </ul>
        </section>
      ))}
      {doc.tiles && doc.centerLat !== null && doc.centerLng !== null ? (
        <div class="map-tiles" id="map-tiles">
          <button
            type="button"
            class="show-map"
            hidden
            data-module="map"
            data-url-template={doc.tiles.urlTemplate}
            data-max-zoom={doc.tiles.maxZoom}
            data-zoom={doc.defaultZoom ?? 14}
            data-center-lat={doc.defaultViewLat ?? doc.centerLat}
            data-center-lng={doc.defaultViewLng ?? doc.centerLng}
          >
            {t('showMap')}
          </button>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the tile source's attribution (the service's own constant), sanitised again */}
          <p class="attribution" dangerouslySetInnerHTML={{ __html: sanitizeSectionHtml(doc.tiles.attribution) }} />
        </div>
      ) : null}
    </section>
  );
}
