import { $, $$, apartmentFromHash, el } from './dom.js';
import type { Navigator } from './navigator.js';

/** The list's rows: the server's table rows, or any element marked as one. */
export const ROWS = 'tr[data-apartment-id], [data-apartment-row]';

/**
 * One selected apartment for the shapes and the list. Both are links to `#apartment-<id>` (the
 * apartment's details), so selection follows the fragment: without JavaScript the link alone opens the
 * details; here the row (`tr[data-apartment-id]`) and every shape of that apartment are marked
 * (`aria-current="true"`, class `is-selected`), the navigator turns to a frame that shows it, and
 * details rendered `hidden` or as a closed `<details>` are opened.
 */
export function initSelection(navigators: Navigator[]): void {
  let opened: HTMLElement | null = null;
  const select = (id: string) => {
    for (const node of $$('.is-selected[data-apartment-id]')) {
      node.classList.remove('is-selected');
      node.removeAttribute('aria-current');
    }
    if (opened) {
      opened.hidden = true;
      opened = null;
    }
    if (!id) return;
    const sel = `[data-apartment-id="${CSS.escape(id)}"]`;
    for (const node of $$(
      `svg a${sel}, ${ROWS.split(', ')
        .map((r) => r + sel)
        .join(', ')}`,
    )) {
      node.classList.add('is-selected');
      node.setAttribute('aria-current', 'true');
    }
    for (const navigator of navigators) navigator.reveal(id);
    const details = document.getElementById(`apartment-${id}`);
    if (details instanceof HTMLDetailsElement) details.open = true;
    else if (details?.hidden) {
      details.hidden = false;
      opened = details;
    }
  };
  addEventListener('hashchange', () => select(apartmentFromHash(location.hash)));
  // A click on the fragment already selected fires no hashchange: the details are shown again anyway.
  document.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[href^="#apartment-"]');
    if (link && link.hash === location.hash) select(apartmentFromHash(link.hash));
  });
  select(apartmentFromHash(location.hash));
}

type Test = (row: HTMLElement, value: string) => boolean;

const num = (v: string | undefined) => (v === undefined || v === '' ? Number.NaN : Number(v));
/** The list's filter fields by name (the server's `form.filters`), each a test of one row. */
const FIELDS: Record<string, Test> = {
  q: (row, v) => (row.querySelector('th, td')?.textContent ?? '').toLowerCase().includes(v.trim().toLowerCase()),
  status: (row, v) => row.dataset.status?.toLowerCase() === v.toLowerCase(),
  rooms: (row, v) => num(row.dataset.rooms) === Number(v),
  floor: (row, v) => num(row.dataset.floor) === Number(v),
  maxPrice: (row, v) => num(row.dataset.priceCents) <= Number(v) * 100,
  minPrice: (row, v) => num(row.dataset.priceCents) >= Number(v) * 100,
};
/** A control naming its own test: `data-filter` (the row attribute) and `data-op` (eq, min, max). */
function generic(control: HTMLElement): Test | undefined {
  const key = control.dataset.filter;
  if (!key) return undefined;
  const op = control.dataset.op ?? 'eq';
  return (row, v) => {
    const own = row.dataset[key];
    if (own === undefined || own === '') return false;
    if (op === 'eq') return own.toLowerCase().split(' ').includes(v.toLowerCase());
    return op === 'min' ? Number(own) >= Number(v) : Number(own) <= Number(v);
  };
}

/**
 * The list's filters without a reload (the server's `form.filters` in `#apartments`, a GET without
 * JavaScript that the server answers filtered). Each named field tests the rows' data attributes
 * (`data-status`, `data-rooms`, `data-floor`, `data-price-cents` where the price is shown; `q` the
 * name); a control may instead say `data-filter`/`data-op`. An empty field filters nothing; a row
 * without a shown price fails a price filter. Filtered-out rows are `hidden` and their shapes get
 * `is-filtered-out`; the count line (`#apartments-count` or `[data-filter-count]`) says how many match.
 */
export function initFilters(form: HTMLFormElement): void {
  const rows = $$(ROWS);
  const controls = $$<HTMLInputElement | HTMLSelectElement>('input[name], select[name]', form)
    .map((control) => ({ control, test: generic(control) ?? FIELDS[control.name] }))
    .filter((c): c is { control: HTMLInputElement | HTMLSelectElement; test: Test } => c.test !== undefined);
  if (rows.length === 0 || controls.length === 0) return;
  let count = $('#apartments-count, [data-filter-count]');
  const apply = () => {
    const active = controls.filter(({ control }) => control.value.trim() !== '');
    let shown = 0;
    for (const row of rows) {
      const ok = active.every(({ control, test }) => test(row, control.value));
      row.hidden = !ok;
      if (ok) shown++;
      const id = row.dataset.apartmentId;
      if (id) for (const shape of $$(`svg [data-apartment-id="${CSS.escape(id)}"]`)) shape.classList.toggle('is-filtered-out', !ok);
    }
    if (!count) {
      count = el('p', { role: 'status' });
      form.after(count);
    }
    count.textContent = shown === rows.length ? `${shown} homes` : `${shown} of ${rows.length} homes`;
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    apply();
  });
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  form.addEventListener('reset', () => setTimeout(apply));
}
