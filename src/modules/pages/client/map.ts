import { $, el } from './dom.js';

/**
 * The map add-on. The server draws the points of interest around the project (no request to another
 * origin); tiles come only after the visitor presses "Show map" (`button[data-map-show]`). The section
 * (`[data-map]`) names the tiles with `data-tiles` (an `{z}/{x}/{y}` template, `{s}` optional), the
 * centre with `data-lat`/`data-lng` and the zoom with `data-zoom`; the tiles fill `[data-map-canvas]`,
 * which the server sizes, so nothing around it moves.
 */
const TILE = 256;

export function initMap(section: HTMLElement): void {
  const button = $<HTMLButtonElement>('[data-map-show]', section);
  const canvas = $('[data-map-canvas]', section);
  const template = section.dataset.tiles;
  const lat = Number(section.dataset.lat);
  const lng = Number(section.dataset.lng);
  const zoom = Math.round(Number(section.dataset.zoom ?? 15));
  if (!button || !canvas || !template || !Number.isFinite(lat) || !Number.isFinite(lng)) return;
  button.hidden = false;
  button.disabled = false;
  button.addEventListener('click', () => {
    const n = 2 ** zoom;
    // Web Mercator: the centre in tile units.
    const x = ((lng + 180) / 360) * n;
    const rad = (lat * Math.PI) / 180;
    const y = ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n;
    const { width, height } = canvas.getBoundingClientRect();
    const layer = el('div', { class: 'map-tiles', role: 'img', 'aria-label': section.dataset.mapLabel ?? 'Map around the project' });
    const cols = Math.ceil(width / TILE / 2) + 1;
    const rows = Math.ceil(height / TILE / 2) + 1;
    for (let ty = Math.floor(y) - rows; ty <= Math.floor(y) + rows; ty++) {
      if (ty < 0 || ty >= n) continue;
      for (let tx = Math.floor(x) - cols; tx <= Math.floor(x) + cols; tx++) {
        const wx = ((tx % n) + n) % n;
        const src = template
          .replace('{s}', 'abc'[Math.abs(tx + ty) % 3]!)
          .replace('{z}', String(zoom))
          .replace('{x}', String(wx))
          .replace('{y}', String(ty));
        const img = el('img', { src, alt: '', width: String(TILE), height: String(TILE), decoding: 'async' });
        img.style.left = `${Math.round(width / 2 + (tx - x) * TILE)}px`;
        img.style.top = `${Math.round(height / 2 + (ty - y) * TILE)}px`;
        layer.append(img);
      }
    }
    canvas.prepend(layer);
    canvas.classList.add('has-tiles');
    button.hidden = true;
    const attribution = $('[data-map-attribution]', section);
    if (attribution) attribution.hidden = false;
    canvas.tabIndex = -1;
    canvas.focus();
  });
}
