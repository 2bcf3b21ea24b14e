/**
 * The homes filter, one rule for the server (a GET of the page with the filter in its query string)
 * and the browser (the same fields, applied without a reload). Plain code: no DOM, no Node.
 */

/** What a filter looks at for one home (the price only when the page shows it). */
export interface HomeFacts {
  /** The home's id (the shared favourites name homes by it). */
  id?: string | undefined;
  name: string;
  status: string;
  rooms?: number | undefined;
  floor?: number | undefined;
  /** The shown price in cents, or undefined when the page does not show one. */
  priceCents?: number | undefined;
  /** The building's id. */
  building?: string | undefined;
  favourite?: boolean | undefined;
}

/** The filter's fields, as the address names them (`?status=ACTIVE&rooms=3&minPrice=…`). */
export interface ListFilter {
  status?: string;
  rooms?: number;
  floor?: number;
  /** Whole currency units. */
  minPrice?: number;
  maxPrice?: number;
  building?: string;
  q?: string;
  favourites?: boolean;
  /** Favourites shared by a link (`favourites=id,id`): these homes only, in any browser. */
  shared?: string[];
  /** The list's page (from 2; a list longer than LIST_PAGE_SIZE homes is paged): not a filter of homes. */
  page?: number;
}

/** A list of more homes than this is shown a page at a time (issue 34's budget: 2,000 homes in 400 KB). */
export const LIST_PAGE_SIZE = 50;

/** At most this many homes in a shared set of favourites (an address stays well under 8 KB). */
export const MAX_SHARED = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const FILTER_FIELDS = ['status', 'rooms', 'floor', 'minPrice', 'maxPrice', 'building', 'q', 'favourites', 'page'] as const;
export const PUBLIC_STATUSES = ['ACTIVE', 'BOOKED', 'SOLD'] as const;

/** The filter a query string names: anything unexpected is ignored (a visitor's URL, not an API call). */
export function filterOf(get: (name: string) => string | null | undefined): ListFilter {
  const filter: ListFilter = {};
  const text = (k: string) => (get(k) ?? '').trim();
  const int = (k: string, min: number, max: number) => {
    const v = text(k);
    if (!/^-?\d{1,12}$/.test(v)) return undefined;
    const n = Number(v);
    return n >= min && n <= max ? n : undefined;
  };
  const status = text('status').toUpperCase();
  if ((PUBLIC_STATUSES as readonly string[]).includes(status)) filter.status = status;
  const rooms = int('rooms', 0, 10_000);
  if (rooms !== undefined) filter.rooms = rooms;
  const floor = int('floor', -100, 1000);
  if (floor !== undefined) filter.floor = floor;
  const maxPrice = int('maxPrice', 0, Number.MAX_SAFE_INTEGER / 100);
  if (maxPrice !== undefined) filter.maxPrice = maxPrice;
  const minPrice = int('minPrice', 0, Number.MAX_SAFE_INTEGER / 100);
  if (minPrice !== undefined) filter.minPrice = minPrice;
  const building = text('building').toLowerCase();
  if (/^[0-9a-f-]{36}$/.test(building)) filter.building = building;
  const q = text('q').slice(0, 100);
  if (q) filter.q = q;
  const page = int('page', 2, 1_000_000);
  if (page !== undefined) filter.page = page;
  const favourites = text('favourites').toLowerCase();
  if (favourites === '1') filter.favourites = true;
  else if (favourites) {
    const ids = [...new Set(favourites.split(',').map((id) => id.trim()))].filter((id) => UUID.test(id)).slice(0, MAX_SHARED);
    if (ids.length > 0) filter.shared = ids;
  }
  return filter;
}

/** True when `home` passes every field of `filter` that is set; a price filter only matches shown prices. */
export function matches(home: HomeFacts, filter: ListFilter): boolean {
  const q = filter.q?.trim().toLowerCase();
  return (
    home.status !== 'HIDDEN' &&
    (filter.status === undefined || home.status === filter.status) &&
    (filter.rooms === undefined || home.rooms === filter.rooms) &&
    (filter.floor === undefined || home.floor === filter.floor) &&
    (filter.maxPrice === undefined || (home.priceCents !== undefined && home.priceCents <= filter.maxPrice * 100)) &&
    (filter.minPrice === undefined || (home.priceCents !== undefined && home.priceCents >= filter.minPrice * 100)) &&
    (filter.building === undefined || home.building === filter.building) &&
    (!filter.favourites || home.favourite === true) &&
    (!filter.shared || (home.id !== undefined && filter.shared.includes(home.id))) &&
    (!q || home.name.toLowerCase().includes(q))
  );
}

/** The query string of `filter` (sorted by FILTER_FIELDS), '' when nothing is set. */
export function filterQuery(filter: ListFilter): string {
  const params = new URLSearchParams();
  for (const field of FILTER_FIELDS) {
    const value = field === 'favourites' && filter.shared ? filter.shared.join(',') : filter[field];
    if (value === undefined || value === false) continue;
    params.set(field, value === true ? '1' : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
