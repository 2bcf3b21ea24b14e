import { Fragment } from 'preact';
import { type ViewerPanorama, linkText } from '../../shared/panorama.js';
import type { Translate } from '../../shared/words.js';
import { jsonLdText } from '../head/render.js';

/**
 * A home's panoramas on its page: each a link to its equirectangular image (what works without
 * JavaScript) with a preview, and an "Open 360° view" button the island (client/panoramas.ts) enables:
 * it loads the viewer's own bundle (`data-viewer-src`, client/viewer.ts) only when a button is pressed.
 * The viewer reads the JSON block (shared/panorama.ts ViewerPanorama: portals and points of interest).
 */
export function PanoramasSection(props: { panoramas: ViewerPanorama[]; viewerSrc: string; t: Translate }) {
  const { t } = props;
  if (props.panoramas.length === 0) return null;
  return (
    <section class="panoramas" aria-labelledby="panoramas-title" data-module="panoramas" data-viewer-src={props.viewerSrc}>
      <h2 id="panoramas-title">{t('panoramas')}</h2>
      <ul class="panorama-list">
        {props.panoramas.map((p) => (
          <li key={p.id} data-panorama-id={p.id}>
            <a href={p.src} class="panorama-link" rel="noopener">
              <img src={p.src} alt="" loading="lazy" decoding="async" width="640" height="320" />
              <span>{p.name}</span>
            </a>
            <button type="button" class="panorama-open" data-panorama-id={p.id}>
              {t('openPanorama')}
              <span class="visually-hidden">{`: ${p.name}`}</span>
            </button>
            <PoiLinks pois={p.pois} t={t} />
          </li>
        ))}
      </ul>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: JSON data block (the viewer's panoramas), '<' escaped as \u003c */}
      <script type="application/json" class="panorama-data" dangerouslySetInnerHTML={{ __html: jsonLdText(props.panoramas) }} />
    </section>
  );
}

/**
 * The points of interest of a panorama that have links (http and https only: shared/panorama.ts poiLinks),
 * each link opening in a new tab: what the viewer shows when a point is pressed, there without JavaScript too.
 */
function PoiLinks(props: { pois: ViewerPanorama['pois']; t: Translate }) {
  const pois = props.pois.filter((poi) => poi.urls.length > 0);
  if (pois.length === 0) return null;
  return (
    <ul class="panorama-pois">
      {pois.map((poi) => (
        <li key={`${poi.yaw} ${poi.pitch} ${poi.name}`}>
          {`${poi.name}: `}
          {poi.urls.map((href, j) => (
            <Fragment key={href}>
              {j > 0 ? ', ' : null}
              <a href={href} target="_blank" rel="noopener noreferrer">
                {linkText(href)}
                <span class="visually-hidden"> {props.t('newTab')}</span>
              </a>
            </Fragment>
          ))}
        </li>
      ))}
    </ul>
  );
}
