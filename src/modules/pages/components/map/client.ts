import { $, el } from '../../client/dom.js';
import type { Words } from '../../client/words.js';

/**
 * The map add-on. The server draws the points of interest around the project (no request to another
 * origin) and renders a "Show map" button (`button.show-map`, `hidden` until this script runs) whose
 * data attributes name the tiles (`data-url-template`, `{z}/{x}/{y}`, `{s}` optional), the centre
 * (`data-center-lat`, `data-center-lng`) and the zoom (`data-zoom`, at most `data-max-zoom`). Tiles are
 * requested only after the press, into a box made then in place of the button.
 */
const TILE = 256;

export function initMap(button: HTMLButtonElement, words: Words): void {
  const d = button.dataset;
  const template = d.urlTemplate;
  const lat = Number(d.centerLat);
  const lng = Number(d.centerLng);
  const zoom = Math.min(Math.round(Number(d.zoom ?? 15)), Number(d.maxZoom ?? 19));
  if (!template || !Number.isFinite(lat) || !Number.isFinite(lng) || !Number.isFinite(zoom)) return;
  button.hidden = false;
  button.addEventListener('click', () => {
    const canvas = el('div', { class: 'map-canvas', role: 'img', 'aria-label': words('mapAround'), tabindex: '-1' });
    button.replaceWith(canvas);
    const n = 2 ** zoom;
    // Web Mercator: the centre in tile units.
    const x = ((lng + 180) / 360) * n;
    const rad = (lat * Math.PI) / 180;
    const y = ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n;
    const { width, height } = canvas.getBoundingClientRect();
    const cols = Math.ceil(width / TILE / 2) + 1;
    const rows = Math.ceil(height / TILE / 2) + 1;
    for (let ty = Math.floor(y) - rows; ty <= Math.floor(y) + rows; ty++) {
      if (ty < 0 || ty >= n) continue;
      for (let tx = Math.floor(x) - cols; tx <= Math.floor(x) + cols; tx++) {
        const src = template
          .replace('{s}', 'abc'[Math.abs(tx + ty) % 3]!)
          // Leaflet's retina suffix: '@2x' on a high-density screen, else nothing (never left in the URL).
          .replace('{r}', window.devicePixelRatio > 1 ? '@2x' : '')
          .replace('{z}', String(zoom))
          .replace('{x}', String(((tx % n) + n) % n))
          .replace('{y}', String(ty));
        const img = el('img', { src, alt: '', width: String(TILE), height: String(TILE), decoding: 'async' });
        img.style.left = `${Math.round(width / 2 + (tx - x) * TILE)}px`;
        img.style.top = `${Math.round(height / 2 + (ty - y) * TILE)}px`;
        canvas.append(img);
      }
    }
    canvas.append(el('span', { class: 'map-marker' }));
    canvas.focus();
  });
}
