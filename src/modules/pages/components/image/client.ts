import { thumbHashToDataURL } from 'thumbhash';
import { $$ } from '../../client/dom.js';

/** How far outside the viewport an image gets its placeholder (about where Chrome starts a lazy image's load). */
const AHEAD = '800px';

/**
 * Paints each image's ThumbHash (`data-placeholder`, base64) behind it until the image itself has
 * loaded: a blurred preview of the render or photo instead of an empty box on a slow phone connection.
 * Set through the CSSOM (`img.style`), which the page's CSP allows (no inline style attribute); the
 * picture is a small PNG data URL (`img-src` allows `data:`). Painted only as an image comes near the
 * viewport (a page of 2,000 homes holds thousands of images, most never seen), so the work at start is
 * the few images on screen. Without JavaScript the CSS's neutral background stays. Images already
 * loaded (from the cache) are left alone.
 */
export function initPlaceholders(root: ParentNode = document): void {
  const images = $$<HTMLImageElement>('img[data-placeholder]', root);
  if (images.length === 0 || !('IntersectionObserver' in window)) return;
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        paint(entry.target as HTMLImageElement);
      }
    },
    { rootMargin: AHEAD },
  );
  for (const img of images) if (!(img.complete && img.naturalWidth > 0)) observer.observe(img);
}

function paint(img: HTMLImageElement): void {
  if (img.complete && img.naturalWidth > 0) return;
  let url: string;
  try {
    const bytes = Uint8Array.from(atob(img.dataset.placeholder ?? ''), (c) => c.charCodeAt(0));
    url = thumbHashToDataURL(bytes);
  } catch {
    return; // not a ThumbHash: the neutral background stays
  }
  img.style.backgroundImage = `url("${url}")`;
  img.style.backgroundSize = 'cover';
  // Gone once the image is there (a render with transparent parts must not show the blur through).
  img.addEventListener(
    'load',
    () => {
      img.style.removeProperty('background-image');
      img.style.removeProperty('background-size');
    },
    { once: true },
  );
}
