import { thumbHashToDataURL } from 'thumbhash';
import { $$ } from './dom.js';

/**
 * Paints each image's ThumbHash (`data-placeholder`, base64) behind it until the image itself has
 * loaded: a blurred preview of the render or photo instead of an empty box on a slow phone connection.
 * Set through the CSSOM (`img.style`), which the page's CSP allows (no inline style attribute); the
 * picture is a small PNG data URL (`img-src` allows `data:`). Without JavaScript the CSS's neutral
 * background stays. Images already loaded (from the cache) are left alone.
 */
export function initPlaceholders(root: ParentNode = document): void {
  for (const img of $$<HTMLImageElement>('img[data-placeholder]', root)) {
    if (img.complete && img.naturalWidth > 0) continue;
    let url: string;
    try {
      const bytes = Uint8Array.from(atob(img.dataset.placeholder ?? ''), (c) => c.charCodeAt(0));
      url = thumbHashToDataURL(bytes);
    } catch {
      continue; // not a ThumbHash: the neutral background stays
    }
    img.style.backgroundImage = `url("${url}")`;
    img.style.backgroundSize = 'cover';
    const clear = () => {
      img.style.removeProperty('background-image');
      img.style.removeProperty('background-size');
    };
    // Gone once the image is there (a render with transparent parts must not show the blur through).
    img.addEventListener('load', clear, { once: true });
  }
}
