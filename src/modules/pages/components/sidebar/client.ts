import { $, $$, el, modified } from '../../client/dom.js';
import { showInParent } from '../../client/resize.js';
import type { Words } from '../../client/words.js';
import { FILTER_FIELDS, type HomeFacts, filterOf, filterQuery, matches } from '../../shared/filter.js';
import type { Navigator } from '../navigator/client.js';

/** The list's rows (server: `tr[data-apartment-id]` in the sidebar's table). */
export const ROWS = 'tr[data-apartment-id]';
const HOME_PATH = /\/homes\/([0-9a-f-]{36})$/i;

/** Marks one home's row and shapes as selected (aria-current, is-selected); '' clears. */
function mark(id: string): void {
  for (const node of $$('.is-selected[data-apartment-id]')) {
    node.classList.remove('is-selected');
    node.removeAttribute('aria-current');
  }
  if (!id) return;
  const sel = `[data-apartment-id="${CSS.escape(id)}"]`;
  for (const node of $$(`svg a${sel}, ${ROWS}${sel}`)) {
    node.classList.add('is-selected');
    node.setAttribute('aria-current', 'true');
  }
}

/**
 * The card in place. A home's shape and its row's name link to its own page (which works without
 * JavaScript); here they open its card (`?part=card`, the same server render) in the sidebar's panel,
 * beside the render, without scrolling: the address follows (`/homes/{id}`, History API), Back or Close
 * closes it, and in an embed the host is asked to keep the card in view.
 */
export function initSelection(navigators: Navigator[], words: Words): void {
  const panel = $('[data-home-panel]');
  if (!panel) return;
  const base = document.body.dataset.path ?? location.pathname.replace(HOME_PATH, '');
  const cards = new Map<string, Promise<Element | null>>();
  let openId = '';
  let trigger: HTMLElement | null = null;

  const load = (id: string) => {
    let card = cards.get(id);
    if (!card) {
      card = fetch(`${base}/homes/${encodeURIComponent(id)}?part=card`, { headers: { accept: 'text/html' } })
        .then((res) => (res.ok ? res.text() : Promise.reject(new Error(String(res.status)))))
        .then((html) => new DOMParser().parseFromString(html, 'text/html').querySelector('[data-home-card]'))
        .catch(() => {
          cards.delete(id);
          return null;
        });
      cards.set(id, card);
    }
    return card;
  };
  const closeButton = el('button', { type: 'button', class: 'panel-close' }, '×');
  closeButton.setAttribute('aria-label', words('close'));
  closeButton.addEventListener('click', () => close(false));

  const open = async (id: string, push: boolean) => {
    openId = id;
    mark(id);
    for (const navigator of navigators) navigator.reveal(id);
    const href = `${base}/homes/${id}`;
    if (push) history.pushState({ home: id }, '', href + location.search);
    panel.hidden = false;
    panel.replaceChildren(closeButton, el('p', { role: 'status' }, words('loading')));
    const card = await load(id);
    if (openId !== id) return;
    if (!card) {
      const failed = el('p', { role: 'alert' });
      failed.append(el('a', { href }, words('loadFailed')));
      panel.replaceChildren(closeButton, failed);
      return;
    }
    const node = document.importNode(card, true);
    panel.replaceChildren(closeButton, node);
    $<HTMLElement>('h1, h2', node)?.focus({ preventScroll: true });
    showInParent(panel);
  };
  const close = (fromHistory: boolean) => {
    if (!openId) return;
    openId = '';
    mark('');
    panel.hidden = true;
    panel.replaceChildren();
    if (!fromHistory) {
      if ((history.state as { home?: string } | null)?.home) history.back();
      else history.replaceState(null, '', base + location.search);
    }
    trigger?.focus({ preventScroll: true });
  };

  document.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>(`svg a[data-apartment-id], ${ROWS} th a`);
    if (!link || modified(event)) return;
    const id = link.dataset.apartmentId ?? link.closest<HTMLElement>(ROWS)?.dataset.apartmentId;
    if (!id) return;
    event.preventDefault();
    trigger = link;
    if (id !== openId) void open(id, true);
  });
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close(false);
  });
  // A frame's shapes arrived (client/navigator.ts): the open home's shape is marked there too.
  document.addEventListener('page:shapes', () => {
    if (openId) mark(openId);
  });
  addEventListener('popstate', () => {
    const match = HOME_PATH.exec(location.pathname);
    if (match?.[1]) void open(match[1].toLowerCase(), false);
    else close(true);
  });
}

const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));

/** What the shared filter looks at, from a row's data attributes (the server wrote them from the same facts). */
const factsOf = (row: HTMLElement): HomeFacts => ({
  id: row.dataset.apartmentId,
  name: row.querySelector('th')?.textContent ?? '',
  status: (row.dataset.status ?? '').toUpperCase(),
  rooms: num(row.dataset.rooms),
  floor: num(row.dataset.floor),
  priceCents: num(row.dataset.priceCents),
  building: row.dataset.building,
  favourite: row.dataset.favourite === 'true',
});

/**
 * The list's filters without a reload: the same fields and the same rule (shared/filter.ts) as the
 * server's GET, the address kept in step (`?status=…`) so a filtered list can be shared. Rows the filter
 * leaves out are `hidden`, their shapes faded; the count line says how many match.
 */
export function initFilters(form: HTMLFormElement, words: Words): () => void {
  // A long list is shown a page at a time (render/sidebar.tsx): only the server has every home, so its
  // form stays a GET of the page (as without JavaScript).
  if ($('table[data-paged]')) return () => undefined;
  const rows = $$(ROWS);
  const count = $('#apartments-count');
  const apply = () => {
    const data = new FormData(form);
    const filter = filterOf((k) => {
      const v = data.get(k);
      return typeof v === 'string' ? v : null;
    });
    let shown = 0;
    for (const row of rows) {
      const ok = matches(factsOf(row), filter);
      row.hidden = !ok;
      if (ok) shown++;
      const id = row.dataset.apartmentId;
      if (id) for (const shape of $$(`svg [data-apartment-id="${CSS.escape(id)}"]`)) shape.classList.toggle('is-filtered-out', !ok);
    }
    if (count) count.textContent = shown === rows.length ? words('homesCount', { count: shown }) : words('homesOf', { shown, total: rows.length });
    // The filter's fields follow the form; any other parameter (a preview link's) is kept.
    const params = new URLSearchParams(filterQuery(filter));
    for (const [name, value] of new URLSearchParams(location.search)) if (!(FILTER_FIELDS as readonly string[]).includes(name)) params.append(name, value);
    const query = params.toString();
    history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    apply();
  });
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  form.addEventListener('reset', () => setTimeout(apply));
  // A frame's shapes arrived: those the filter leaves out fade there too.
  document.addEventListener('page:shapes', apply);
  return apply;
}
