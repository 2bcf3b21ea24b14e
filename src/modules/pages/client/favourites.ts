import { $$ } from './dom.js';

/**
 * favouritesEnabled: each home's Save button (`button[data-favourite]`, on its row and its card) toggles it
 * in this browser's favourites (localStorage, per estate; a private window or a full store keeps them for the
 * page's life only). Rows carry `data-favourite="true"` for the list's "Only my favourites" filter, which
 * `refilter` applies again after a change.
 */
export function initFavourites(refilter: () => void): void {
  if ($$('button[data-favourite]').length === 0) return;
  const key = `pps:favourites:${document.body.dataset.estateId ?? ''}`;
  let saved = new Set<string>();
  try {
    saved = new Set(JSON.parse(localStorage.getItem(key) ?? '[]') as string[]);
  } catch {
    // Nothing kept, or storage refused: start empty.
  }
  const paint = () => {
    for (const button of $$('button[data-favourite]')) button.setAttribute('aria-pressed', String(saved.has(button.dataset.favourite ?? '')));
    for (const row of $$('tr[data-apartment-id]')) row.dataset.favourite = String(saved.has(row.dataset.apartmentId ?? ''));
  };
  document.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-favourite]');
    const id = button?.dataset.favourite;
    if (!id) return;
    if (saved.has(id)) saved.delete(id);
    else saved.add(id);
    try {
      localStorage.setItem(key, JSON.stringify([...saved]));
    } catch {
      // Storage refused: kept for this page only.
    }
    paint();
    refilter();
  });
  // A card opened later carries its own button: painted when it arrives.
  new MutationObserver(paint).observe(document.getElementById('home-panel') ?? document.body, { childList: true });
  paint();
  refilter();
}
