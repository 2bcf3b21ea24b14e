import { $, $$ } from '../../client/dom.js';
import type { Words } from '../../client/words.js';

/**
 * favouritesEnabled: each home's Save button (`button[data-favourite]`, on its row and its card) toggles it
 * in this browser's favourites (localStorage, per estate; a private window or a full store keeps them for the
 * page's life only). Rows carry `data-favourite="true"` for the list's "Only my favourites" filter, which
 * `refilter` applies again after a change.
 * The set is shared by a link (`a[data-share-favourites]`: the page with `?favourites=id,id`, copied when
 * the clipboard allows, else followed); opened in another browser, the server lists those homes
 * (`[data-shared-favourites]`) and the "Save" button here adds them to that browser's favourites.
 */
export function initFavourites(refilter: () => void, words: Words): void {
  if ($$('button[data-favourite]').length === 0) return;
  const key = `pps:favourites:${document.body.dataset.estateId ?? ''}`;
  let saved = new Set<string>();
  try {
    saved = new Set(JSON.parse(localStorage.getItem(key) ?? '[]') as string[]);
  } catch {
    // Nothing kept, or storage refused: start empty.
  }
  const share = $<HTMLAnchorElement>('a[data-share-favourites]');
  const shareStatus = $('[data-share-status]');
  const base = share?.getAttribute('href') ?? location.pathname;
  const store = () => {
    try {
      localStorage.setItem(key, JSON.stringify([...saved]));
    } catch {
      // Storage refused: kept for this page only.
    }
  };
  const paint = () => {
    for (const button of $$('button[data-favourite]')) button.setAttribute('aria-pressed', String(saved.has(homeOf(button))));
    for (const row of $$('tr[data-apartment-id]')) row.dataset.favourite = String(saved.has(row.dataset.apartmentId ?? ''));
    if (share) {
      // Only homes this page lists (a favourite of a home since hidden is left out).
      const ids = $$('tr[data-apartment-id]')
        .map((row) => row.dataset.apartmentId ?? '')
        .filter((id) => saved.has(id));
      share.href = new URL(`${base}?favourites=${ids.join(',')}`, location.href).href;
      share.classList.toggle('is-ready', ids.length > 0);
    }
  };
  document.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-favourite]');
    const id = button ? homeOf(button) : undefined;
    if (!id) return;
    if (saved.has(id)) saved.delete(id);
    else saved.add(id);
    store();
    paint();
    refilter();
  });
  share?.addEventListener('click', (event) => {
    if (!navigator.clipboard || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    navigator.clipboard.writeText(share.href).then(
      () => {
        if (shareStatus) shareStatus.textContent = words('linkCopied');
      },
      () => location.assign(share.href),
    );
  });
  // A shared set: offered to this browser's favourites; saved, the list shows "Only my favourites".
  const shared = $('[data-shared-favourites]');
  const saveShared = shared && $<HTMLButtonElement>('button[data-save-shared]', shared);
  if (shared && saveShared) {
    saveShared.hidden = false;
    saveShared.addEventListener('click', () => {
      for (const id of (shared.dataset.sharedFavourites ?? '').split(',')) if (id) saved.add(id);
      store();
      paint();
      const box = $<HTMLInputElement>('#filter-favourites');
      shared.remove();
      if (box) box.checked = true;
      refilter();
      box?.focus();
    });
  }
  // A card opened later carries its own button: painted when it arrives.
  new MutationObserver(paint).observe(document.getElementById('home-panel') ?? document.body, { childList: true });
  paint();
  refilter();
}

/** The home a Save button is for: its own `data-favourite` (a card), else its row's (written once per row). */
const homeOf = (button: HTMLElement) => button.dataset.favourite || (button.closest<HTMLElement>('tr[data-apartment-id]')?.dataset.apartmentId ?? '');
