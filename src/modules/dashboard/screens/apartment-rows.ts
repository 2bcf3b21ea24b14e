import type { CompressibleBody } from '../../../http/compression.js';
import { APARTMENT_STATUSES, type Apartment } from '../../apartments/schemas.js';
import { formatPrice } from './apartments-csv.js';

/** What the apartments table says for each status. */
export const STATUS_WORDS: Record<string, string> = { ACTIVE: 'Available', BOOKED: 'Reserved', SOLD: 'Sold', HIDDEN: 'Hidden' };

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '"': '&quot;' };
/** Text or a double-quoted attribute value, escaped as preact-render-to-string escapes it (& < "). */
const esc = (value: string): string => value.replace(/[&<"]/g, (c) => ENTITIES[c]!);
/** An attribute's `="value"`, or nothing for an empty value (preact writes a bare `value` then). */
const attr = (value: string): string => (value ? `="${esc(value)}"` : '');

export interface RowsContext {
  /** The table's base URL (`/dashboard/o/{org}/apartments`). */
  base: string;
  csrf: string;
  /** The filter's query string, sent back so a save returns to the same view. */
  back: string;
  editable: boolean;
  /** A message next to an apartment's price, by its id. */
  rowErrors?: Record<string, string> | undefined;
}

/**
 * The table's rows as HTML: the markup of the JSX row in apartment-rows.test.ts (which renders it with preact
 * and compares, hostile names included), written as strings because preact rendered 2,000 rows of forms
 * several times slower than the API answers the same apartments (docs/performance.md, "The dashboard").
 * Every text and attribute value goes through `esc`. A row's `version` is its updatedAt (the save compares
 * it, then updates under the current ETag): hashing 2,000 apartments for their ETags cost as much as the rest.
 *
 * Each row is its own form (the status and price name it with `form=`), so a row saves without JavaScript
 * and only its own fields are sent. Nothing is written that the browser already assumes or no one reads
 * (`type="text"`, `type="submit"`, `novalidate` on a form without constraints, an id per checkbox), and the
 * form's id is the row's position (`r0`…), not the apartment's id: every byte here is written, compressed,
 * sent and parsed 2,000 times.
 */
export function apartmentRowsHtml(apartments: readonly Apartment[], ctx: RowsContext): string {
  const back = attr(ctx.back);
  const csrf = attr(ctx.csrf);
  const base = esc(ctx.base);
  const out: string[] = [];
  for (let n = 0; n < apartments.length; n++) {
    const a = apartments[n]!;
    const id = esc(a.id);
    const name = esc(a.name);
    const price = formatPrice(a.priceCents);
    const currency = esc(a.currency ?? '');
    let row = `<tr id="apartment-${id}">`;
    if (ctx.editable) {
      row += `<td><input type="checkbox" form="bulk" name="ids" value="${id}" aria-label="Select ${name}"/></td>`;
    }
    row += `<th scope="row">${name}</th><td>${esc(a.building.name)}</td>`;
    if (ctx.editable) {
      const error = ctx.rowErrors?.[a.id];
      row += `<td><select form="r${n}" name="status" aria-label="Status of ${name}">`;
      for (const s of APARTMENT_STATUSES) row += `<option value="${s}"${s === a.status ? ' selected' : ''}>${STATUS_WORDS[s]}</option>`;
      row += '</select></td><td>';
      if (error) row += `<p class="error-message" id="price-error-${id}">${esc(error)}</p>`;
      row += `<input form="r${n}" name="price" inputmode="decimal" value${attr(price)} aria-label="Price of ${name}${a.currency ? ` (${currency})` : ''}"`;
      if (error) row += ` aria-invalid="true" aria-describedby="price-error-${id}"`;
      row += ` size="10"/> ${currency}</td>`;
      row += `<td><form method="post" action="${base}/${id}" class="inline" id="r${n}"><input type="hidden" name="_csrf" value${csrf}/>`;
      row += `<input type="hidden" name="version" value${attr(a.updatedAt)}/><input type="hidden" name="back" value${back}/>`;
      row += `<button class="secondary">Save<span class="visually-hidden"> ${name}</span></button></form></td>`;
    } else {
      row += `<td>${STATUS_WORDS[a.status]}</td><td>${esc(price)} ${currency}</td>`;
    }
    out.push(`${row}</tr>`);
  }
  return out.join('');
}

/** NUL never occurs in a value read from PostgreSQL (text cannot hold it): it marks where the CSRF token goes. */
const CSRF_MARK = '\u0000';
/** Variants kept per list (role, filter): a few, since one list answer is one filter already. */
const KEPT_VARIANTS = 4;
const keptRows = new WeakMap<CompressibleBody, Map<string, string[]>>();

/**
 * apartmentRowsHtml for the rows of a kept list answer (`list`, apartments/lists.ts), made once per answer and
 * kept beside it: the rows with a mark for the session's CSRF token, cut at the marks, so a screen joins the
 * pieces with its own token (the same bytes as apartmentRowsHtml; apartment-rows.test.ts compares). The list
 * cache answers the same body until the apartments change, as the API answers its pages from it; the pieces go
 * when the answer goes. Rows with errors (a refused save) are written afresh.
 */
export function keptApartmentRowsHtml(list: CompressibleBody, apartments: readonly Apartment[], ctx: RowsContext): string {
  if (ctx.rowErrors || !ctx.csrf) return apartmentRowsHtml(apartments, ctx);
  let variants = keptRows.get(list);
  if (!variants) {
    variants = new Map();
    keptRows.set(list, variants);
  }
  const key = `${ctx.editable}\n${ctx.base}\n${ctx.back}`;
  let pieces = variants.get(key);
  if (!pieces) {
    pieces = apartmentRowsHtml(apartments, { ...ctx, csrf: CSRF_MARK }).split(CSRF_MARK);
    // One mark per editable row: anything else (a mark inside a value) and the rows are written afresh every time.
    if (pieces.length !== (ctx.editable ? apartments.length : 0) + 1) return apartmentRowsHtml(apartments, ctx);
    if (variants.size >= KEPT_VARIANTS) variants.clear();
    variants.set(key, pieces);
  }
  return pieces.join(esc(ctx.csrf));
}
