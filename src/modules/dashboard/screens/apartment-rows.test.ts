import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { CompressibleBody } from '../../../http/compression.js';
import { APARTMENT_STATUSES, type Apartment } from '../../apartments/schemas.js';
import { type RowsContext, STATUS_WORDS, apartmentRowsHtml, keptApartmentRowsHtml } from './apartment-rows.js';
import { formatPrice } from './apartments-csv.js';

/**
 * The row as JSX would render it with preact, written with `h`: the oracle. The screen rendered these rows with preact before
 * apartmentRowsHtml (then with the apartment's id as the form's id, `type` on the price and button, `novalidate`, an id per checkbox).
 */
function preactRow(a: Apartment, n: number, ctx: RowsContext) {
  const row = `r${n}`;
  const error = ctx.rowErrors?.[a.id];
  const cells = ctx.editable
    ? [
        h('td', null, h('input', { type: 'checkbox', form: 'bulk', name: 'ids', value: a.id, 'aria-label': `Select ${a.name}` })),
        h('th', { scope: 'row' }, a.name),
        h('td', null, a.building.name),
        h(
          'td',
          null,
          h(
            'select',
            { form: row, name: 'status', 'aria-label': `Status of ${a.name}` },
            APARTMENT_STATUSES.map((s) => h('option', { key: s, value: s, selected: s === a.status }, STATUS_WORDS[s])),
          ),
        ),
        h(
          'td',
          null,
          error ? h('p', { class: 'error-message', id: `price-error-${a.id}` }, error) : null,
          h('input', {
            form: row,
            name: 'price',
            inputMode: 'decimal',
            value: formatPrice(a.priceCents),
            'aria-label': `Price of ${a.name}${a.currency ? ` (${a.currency})` : ''}`,
            'aria-invalid': error ? 'true' : undefined,
            'aria-describedby': error ? `price-error-${a.id}` : undefined,
            size: 10,
          }),
          ' ',
          a.currency ?? '',
        ),
        h(
          'td',
          null,
          h(
            'form',
            { method: 'post', action: `${ctx.base}/${a.id}`, class: 'inline', id: row },
            h('input', { type: 'hidden', name: '_csrf', value: ctx.csrf }),
            h('input', { type: 'hidden', name: 'version', value: a.updatedAt }),
            h('input', { type: 'hidden', name: 'back', value: ctx.back }),
            h('button', { class: 'secondary' }, 'Save', h('span', { class: 'visually-hidden' }, ' ', a.name)),
          ),
        ),
      ]
    : [
        h('th', { scope: 'row' }, a.name),
        h('td', null, a.building.name),
        h('td', null, STATUS_WORDS[a.status]),
        h('td', null, formatPrice(a.priceCents), ' ', a.currency ?? ''),
      ];
  return h('tr', { key: a.id, id: `apartment-${a.id}` }, ...cells);
}

const hostile = `<script>alert("x")</script> & 'quoted' "double" > end`;
const apartment = (i: number, over: Partial<Apartment> = {}): Apartment =>
  ({
    id: `0000000${i}-0000-4000-8000-000000000000`,
    name: `Unit ${i}`,
    status: APARTMENT_STATUSES[i % 4],
    priceCents: i % 3 === 0 ? null : 12_345_00 + i * 7,
    currency: i % 3 === 2 ? null : 'EUR',
    building: { id: 'b', name: 'North & "South" <Tower>', estateId: 'e' },
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  }) as unknown as Apartment;

describe('apartmentRowsHtml', () => {
  const apartments = [apartment(1), apartment(2, { name: hostile }), apartment(3), apartment(4, { currency: '<€>' as never }), apartment(5, { priceCents: 5 })];
  const contexts: RowsContext[] = [
    { base: '/dashboard/o/org/apartments', csrf: 'csrf"<&', back: 'estateId=e&status=SOLD', editable: true },
    { base: '/dashboard/o/org/apartments', csrf: 'c', back: '', editable: true, rowErrors: { [apartments[1]!.id]: `Enter a price ${hostile}` } },
    { base: '/dashboard/o/org/apartments', csrf: 'c', back: '', editable: false },
  ];
  it.each(contexts.map((ctx, i) => [i, ctx] as const))('writes exactly the markup preact rendered, every value escaped (context %i)', (_, ctx) => {
    const expected = apartments.map((a, n) => renderToString(preactRow(a, n, ctx))).join('');
    const html = apartmentRowsHtml(apartments, ctx);
    expect(html).toBe(expected);
    expect(html).not.toContain('<script>');
  });

  it('the kept rows of a list answer are the same bytes for every session, each with its own CSRF token; rows with errors are written afresh', () => {
    const list = new CompressibleBody(Buffer.from('{}'));
    for (const ctx of contexts) {
      for (const csrf of ['first-token', 'second "token" <&>']) {
        const session = { ...ctx, csrf };
        expect(keptApartmentRowsHtml(list, apartments, session)).toBe(apartmentRowsHtml(apartments, session));
        expect(keptApartmentRowsHtml(list, apartments, session)).toBe(apartments.map((a, n) => renderToString(preactRow(a, n, session))).join(''));
      }
    }
    // Kept: a list answer's rows are made once, so other apartments under the same answer (never the case: an answer is
    // never changed) would still show the first ones; a new answer makes them anew.
    const session = contexts[0]!;
    const first = keptApartmentRowsHtml(list, apartments, session);
    expect(keptApartmentRowsHtml(list, apartments.slice(0, 1), session)).toBe(first);
    expect(keptApartmentRowsHtml(new CompressibleBody(Buffer.from('{}')), apartments.slice(0, 1), session)).toBe(
      apartmentRowsHtml(apartments.slice(0, 1), session),
    );
  });
});
