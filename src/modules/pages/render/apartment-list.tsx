import type { Apartment } from '../../apartments/schemas.js';
import { area, integer, shownPrice, statusLabel } from './format.js';
import type { ListFilter } from './types.js';

export const LIST_COLUMNS = ['status', 'rooms', 'area', 'floor', 'price'] as const;
export const LIST_FILTERS = ['status', 'rooms', 'floor', 'price', 'name'] as const;
const PUBLIC_STATUSES = ['ACTIVE', 'BOOKED', 'SOLD'] as const;

const hidden = (names: string[] | undefined) => new Set((names ?? []).map((n) => n.toLowerCase()));

/** The apartments the list shows for `filter`: never HIDDEN ones; a price filter only matches shown prices. */
export function filtered(apartments: Apartment[], filter: ListFilter): Apartment[] {
  const q = filter.q?.trim().toLowerCase();
  return apartments.filter(
    (a) =>
      a.status !== 'HIDDEN' &&
      (filter.status === undefined || a.status === filter.status) &&
      (filter.rooms === undefined || a.apartmentData.rooms === filter.rooms) &&
      (filter.floor === undefined || a.apartmentData.floor === filter.floor) &&
      (filter.maxPrice === undefined || (a.showPrice && a.priceCents !== null && a.priceCents <= filter.maxPrice * 100)) &&
      (!q || a.name.toLowerCase().includes(q)),
  );
}

function Filters(props: { path: string; filter: ListFilter; hide: Set<string>; rooms: number[]; floors: number[] }) {
  const { filter, hide } = props;
  if (LIST_FILTERS.every((f) => hide.has(f))) return null;
  return (
    <form class="filters" method="get" action={`${props.path}#apartments`} aria-label="Filter homes">
      {hide.has('name') ? null : (
        <p class="field">
          <label for="filter-q">Name</label>
          <input id="filter-q" name="q" type="search" maxLength={100} value={filter.q ?? ''} />
        </p>
      )}
      {hide.has('status') ? null : (
        <p class="field">
          <label for="filter-status">Status</label>
          <select id="filter-status" name="status">
            <option value="">Any</option>
            {PUBLIC_STATUSES.map((s) => (
              <option key={s} value={s} selected={filter.status === s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </p>
      )}
      {hide.has('rooms') ? null : (
        <p class="field">
          <label for="filter-rooms">Rooms</label>
          <select id="filter-rooms" name="rooms">
            <option value="">Any</option>
            {props.rooms.map((r) => (
              <option key={r} value={r} selected={filter.rooms === r}>
                {r}
              </option>
            ))}
          </select>
        </p>
      )}
      {hide.has('floor') ? null : (
        <p class="field">
          <label for="filter-floor">Floor</label>
          <select id="filter-floor" name="floor">
            <option value="">Any</option>
            {props.floors.map((f) => (
              <option key={f} value={f} selected={filter.floor === f}>
                {f}
              </option>
            ))}
          </select>
        </p>
      )}
      {hide.has('price') ? null : (
        <p class="field">
          <label for="filter-max-price">Maximum price</label>
          <input id="filter-max-price" name="maxPrice" type="number" min={0} step={1} inputMode="numeric" value={filter.maxPrice ?? ''} />
        </p>
      )}
      <p class="actions">
        <button type="submit">Show homes</button> <a href={`${props.path}#apartments`}>Clear</a>
      </p>
    </form>
  );
}

/** The apartment list: a table of every non-hidden apartment (or those the no-JS filter leaves). */
export function ApartmentList(props: {
  path: string;
  apartments: Apartment[];
  filter: ListFilter;
  hideFilters?: string[];
  hideColumns?: string[];
  locale: string;
}) {
  const { locale } = props;
  const columns = hidden(props.hideColumns);
  const visible = props.apartments.filter((a) => a.status !== 'HIDDEN');
  const rows = filtered(props.apartments, props.filter);
  const distinct = (values: Array<number | undefined>) => [...new Set(values.filter((v): v is number => v !== undefined))].sort((a, b) => a - b);
  const show = (c: string) => !columns.has(c);
  return (
    <section class="apartments" id="apartments" aria-labelledby="apartments-title">
      <h2 id="apartments-title">Homes</h2>
      <Filters
        path={props.path}
        filter={props.filter}
        hide={hidden(props.hideFilters)}
        rooms={distinct(visible.map((a) => a.apartmentData.rooms))}
        floors={distinct(visible.map((a) => a.apartmentData.floor))}
      />
      <p class="count" id="apartments-count" aria-live="polite">
        {rows.length === visible.length ? `${rows.length} homes` : `${rows.length} of ${visible.length} homes`}
      </p>
      <div class="table-scroll">
        <table>
          <caption class="visually-hidden">Homes and their availability</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              {show('status') ? <th scope="col">Status</th> : null}
              {show('rooms') ? <th scope="col">Rooms</th> : null}
              {show('area') ? <th scope="col">Area</th> : null}
              {show('floor') ? <th scope="col">Floor</th> : null}
              {show('price') ? <th scope="col">Price</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <tr
                key={a.id}
                id={`row-${a.id}`}
                data-apartment-id={a.id}
                data-status={a.status.toLowerCase()}
                data-rooms={a.apartmentData.rooms}
                data-floor={a.apartmentData.floor}
                data-price-cents={shownPrice(a, locale) === null ? undefined : (a.priceCents ?? undefined)}
              >
                <th scope="row">
                  <a href={`#apartment-${a.id}`}>{a.name}</a>
                </th>
                {show('status') ? (
                  <td>
                    <span class={`status status-${a.status.toLowerCase()}`}>{statusLabel(a.status)}</span>
                  </td>
                ) : null}
                {show('rooms') ? <td>{integer(a.apartmentData.rooms, locale) ?? '–'}</td> : null}
                {show('area') ? <td>{area(a, locale) ?? '–'}</td> : null}
                {show('floor') ? <td>{integer(a.apartmentData.floor, locale) ?? '–'}</td> : null}
                {show('price') ? <td>{shownPrice(a, locale) ?? 'On request'}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
