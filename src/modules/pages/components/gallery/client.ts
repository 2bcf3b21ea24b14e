import { $, $$, el, modified } from '../../client/dom.js';
import type { Words } from '../../client/words.js';

/** A gallery link to an image (a link around a video thumbnail keeps its default). */
const LINK = 'a.gallery-link';

/**
 * The gallery's lightbox. Without JavaScript each gallery link (`a.gallery-link` in a `[data-gallery]`
 * list) is a link to the image; its thumbnail's `srcset` serves the large view too, the caption is the
 * figure's `figcaption` (else the alt). Here it opens in a modal `<dialog>`: the
 * rest of the page is inert, Tab and Shift+Tab stay among its buttons, Escape closes it, the arrow keys
 * go to the previous or next image of the same list, and focus returns to the link.
 */
export function initLightbox(gallery: HTMLElement, words: Words): void {
  let dialog: HTMLDialogElement | null = null;
  let image: HTMLImageElement;
  let caption: HTMLElement;
  let counter: HTMLElement;
  let items: HTMLAnchorElement[] = [];
  let index = 0;
  let opener: HTMLElement | null = null;

  const show = (i: number) => {
    index = (i + items.length) % items.length;
    const link = items[index]!;
    const thumb = $<HTMLImageElement>('img', link);
    image.removeAttribute('srcset');
    if (thumb?.srcset) image.srcset = thumb.srcset;
    image.sizes = '(min-width: 1240px) 1200px, 96vw';
    image.src = link.href;
    image.alt = thumb?.alt ?? '';
    caption.textContent = link.closest('figure')?.querySelector('figcaption')?.textContent ?? thumb?.alt ?? '';
    counter.textContent = words('nOfTotal', { n: index + 1, total: items.length });
  };

  const build = () => {
    const d = el('dialog', { class: 'lightbox', 'aria-label': words('imageViewer') });
    const figure = el('figure');
    image = el('img', { alt: '', decoding: 'async' });
    caption = el('figcaption');
    figure.append(image, caption);
    counter = el('p', { class: 'lightbox-counter', 'aria-live': 'polite' });
    const prev = el('button', { type: 'button', class: 'lightbox-prev', 'aria-label': words('previousImage') }, '‹');
    const next = el('button', { type: 'button', class: 'lightbox-next', 'aria-label': words('nextImage') }, '›');
    const close = el('button', { type: 'button', class: 'lightbox-close', 'aria-label': words('close') }, '×');
    prev.addEventListener('click', () => show(index - 1));
    next.addEventListener('click', () => show(index + 1));
    close.addEventListener('click', () => d.close());
    d.append(close, figure, counter, prev, next);
    d.addEventListener('keydown', (event) => {
      if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        event.preventDefault();
        show(index + (event.key === 'ArrowLeft' ? -1 : 1));
      } else if (event.key === 'Tab') {
        const stops = [close, prev, next].filter((b) => !b.hidden);
        const first = stops[0]!;
        const last = stops[stops.length - 1]!;
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }
    });
    // A click on the backdrop (outside the dialog's box) closes it.
    d.addEventListener('click', (event) => {
      if (event.target === d) {
        const r = d.getBoundingClientRect();
        if (event.clientX < r.left || event.clientX > r.right || event.clientY < r.top || event.clientY > r.bottom) d.close();
      }
    });
    d.addEventListener('close', () => {
      document.documentElement.classList.remove('has-lightbox');
      opener?.focus();
    });
    document.body.append(d);
    return d;
  };

  gallery.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>(LINK);
    if (!link || !$('img', link) || modified(event)) return;
    event.preventDefault();
    dialog ??= build();
    items = $$<HTMLAnchorElement>(LINK, gallery).filter((a) => $('img', a));
    for (const b of $$('.lightbox-prev, .lightbox-next', dialog)) b.hidden = items.length < 2;
    opener = link;
    show(items.indexOf(link));
    document.documentElement.classList.add('has-lightbox');
    dialog.showModal();
    $<HTMLButtonElement>('.lightbox-close', dialog)!.focus();
  });
}
