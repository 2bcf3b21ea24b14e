import { $, $$, apartmentFromHash, el } from './dom.js';
import type { Navigator } from './navigator.js';

/**
 * One selected apartment for the shapes and the list. Both are links to `#apartment-<id>` (the
 * apartment's details), so selection follows the fragment: without JavaScript the link alone opens the
 * details; here the row (`[data-apartment-row]`) and every shape of that apartment are marked
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
    for (const node of $$(sel)) {
      node.classList.add('is-selected');
      if (node.matches('a, [data-apartment-row]')) node.setAttribute('aria-current', 'true');
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

type Op = 'eq' | 'min' | 'max';

/**
 * The list's filters without a reload (`form[data-apartment-filters]`; without JavaScript the form is a
 * GET the server answers filtered). Each control names the row attribute it filters with `data-filter`
 * (`status` compares to the row's `data-status`, `area` to `data-area`, …) and how with `data-op`
 * (`eq`, the default, `min` or `max`); an empty control filters nothing. A row lacking the value
 * (no shown price) fails a `min`/`max` on it. Rows and the shapes of filtered-out apartments get
 * `hidden` / class `is-filtered-out`; `[data-filter-count]` (or a status line made here) says how many match.
 */
export function initFilters(form: HTMLFormElement): void {
  const rows = $$('[data-apartment-row]');
  const controls = $$<HTMLInputElement | HTMLSelectElement>('[data-filter]', form);
  if (rows.length === 0 || controls.length === 0) return;
  let count = $('[data-filter-count]');
  const apply = () => {
    const tests = controls
      .filter((c) => c.value !== '' && (c.type !== 'checkbox' || (c as HTMLInputElement).checked))
      .map((c) => ({ key: c.dataset.filter!, op: (c.dataset.op ?? 'eq') as Op, value: c.value }));
    let shown = 0;
    for (const row of rows) {
      const ok = tests.every(({ key, op, value }) => {
        const own = row.dataset[key];
        if (own === undefined || own === '') return false;
        if (op === 'eq') return own.split(' ').includes(value);
        const a = Number(own);
        const b = Number(value);
        return op === 'min' ? a >= b : a <= b;
      });
      row.hidden = !ok;
      if (ok) shown++;
      const id = row.dataset.apartmentId;
      if (id) for (const shape of $$(`svg [data-apartment-id="${CSS.escape(id)}"]`)) shape.classList.toggle('is-filtered-out', !ok);
    }
    if (!count) {
      count = el('p', { role: 'status', class: 'filter-count' });
      form.after(count);
    }
    count.textContent = `${shown} of ${rows.length} apartments shown`;
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    apply();
  });
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  form.addEventListener('reset', () => setTimeout(apply));
  if (controls.some((c) => c.value !== '' && c.type !== 'checkbox')) apply();
}
