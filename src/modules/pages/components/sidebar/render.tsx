import type { Apartment } from '../../../apartments/schemas.js';
import type { Estate } from '../../../estates/schemas.js';
import { area, homeHref, integer, shownPrice } from '../../render/format.js';
import { type HomeFacts, LIST_PAGE_SIZE, type ListFilter, PUBLIC_STATUSES, filterQuery, matches } from '../../shared/filter.js';
import type { Translate } from '../../shared/words.js';

export const LIST_COLUMNS = ['status', 'rooms', 'area', 'floor', 'price'] as const;
export const LIST_FILTERS = ['status', 'rooms', 'floor', 'price', 'name', 'building'] as const;

const hiddenSet = (names: string[] | undefined) => new Set((names ?? []).map((n) => n.toLowerCase()));

/** What the shared filter (shared/filter.ts) looks at for an apartment; the price only where it is shown. */
export function factsOf(a: Apartment): HomeFacts {
  return {
    id: a.id,
    name: a.name,
    status: a.status,
    rooms: a.apartmentData.rooms,
    floor: a.apartmentData.floor,
    priceCents: a.showPrice && a.priceCents !== null && a.status !== 'HIDDEN' ? a.priceCents : undefined,
    building: a.buildingId,
  };
}

/** The apartments the list shows for `filter`: never HIDDEN ones (favourites live in the browser: not applied here; a shared set is). */
export const filtered = (apartments: Apartment[], filter: ListFilter) => apartments.filter((a) => matches(factsOf(a), { ...filter, favourites: false }));

/** A home's Save toggle (favouritesEnabled): kept in this browser by the script; unseen without it. */
export function FavouriteButton(props: { id?: string | undefined; name: string; t: Translate }) {
  // In a row the id is the row's (`data-favourite` empty: written once per row); on a card its own.
  return (
    <button type="button" class="fav" aria-pressed="false" aria-label={props.t('saveHome', { name: props.name })} data-favourite={props.id ?? ''}>
      ♥
    </button>
  );
}

/** Each public status with its colour and its count: status is never told by colour alone. */
export function Legend(props: { apartments: Apartment[]; t: Translate; locale: string }) {
  const { t } = props;
  return (
    <section class="legend" aria-label={t('legend')}>
      <ul>
        {PUBLIC_STATUSES.map((status) => {
          const count = props.apartments.filter((a) => a.status === status).length;
          return (
            <li key={status} data-status={status.toLowerCase()}>
              <span class={`swatch status-${status.toLowerCase()}`} aria-hidden="true" />
              {t(status)} <span class="legend-count">{integer(count, props.locale)}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

type Building = Estate['buildings'][number];

function Select(props: { id: string; name: string; label: string; any: string; value: string | undefined; options: Array<[string, string]> }) {
  return (
    <p class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.name}>
        <option value="">{props.any}</option>
        {props.options.map(([value, text]) => (
          <option key={value} value={value} selected={props.value === value}>
            {text}
          </option>
        ))}
      </select>
    </p>
  );
}

function Filters(props: {
  path: string;
  filter: ListFilter;
  hide: Set<string>;
  rooms: number[];
  floors: number[];
  buildings: Building[];
  t: Translate;
  favourites: boolean;
}) {
  const { filter, hide, t } = props;
  if (LIST_FILTERS.every((f) => hide.has(f))) return null;
  const any = t('any');
  return (
    <form class="filters" method="get" action={`${props.path}#apartments`} aria-label={t('filterHomes')} data-module="home-filters">
      {hide.has('name') ? null : (
        <p class="field">
          <label for="filter-q">{t('name')}</label>
          <input id="filter-q" name="q" type="search" maxLength={100} value={filter.q ?? ''} />
        </p>
      )}
      {hide.has('status') ? null : (
        <Select id="filter-status" name="status" label={t('status')} any={any} value={filter.status} options={PUBLIC_STATUSES.map((s) => [s, t(s)])} />
      )}
      {(['rooms', 'floor'] as const).map((name) =>
        hide.has(name) ? null : (
          <Select
            key={name}
            id={`filter-${name}`}
            name={name}
            label={t(name)}
            any={any}
            value={filter[name]?.toString()}
            options={(name === 'rooms' ? props.rooms : props.floors).map((n) => [String(n), String(n)])}
          />
        ),
      )}
      {hide.has('building') || props.buildings.length < 2 ? null : (
        <Select
          id="filter-building"
          name="building"
          label={t('building')}
          any={any}
          value={filter.building}
          options={props.buildings.map((b) => [b.id, b.name])}
        />
      )}
      {hide.has('price') ? null : (
        <>
          <p class="field">
            <label for="filter-min-price">{t('minPrice')}</label>
            <input id="filter-min-price" name="minPrice" type="number" min={0} step={1} inputMode="numeric" value={filter.minPrice ?? ''} />
          </p>
          <p class="field">
            <label for="filter-max-price">{t('maxPrice')}</label>
            <input id="filter-max-price" name="maxPrice" type="number" min={0} step={1} inputMode="numeric" value={filter.maxPrice ?? ''} />
          </p>
        </>
      )}
      {props.favourites ? (
        // Favourites live in this browser (the script keeps them): the box works only with it.
        <>
          {filter.shared ? (
            // A set shared by a link: these homes, in any browser; the script offers to save them.
            <p class="shared-favourites" data-shared-favourites={filter.shared.join(',')}>
              <input type="hidden" name="favourites" value={filter.shared.join(',')} />
              {t('sharedFavourites', { count: filter.shared.length })}{' '}
              <button type="button" class="save-shared" data-save-shared hidden>
                {t('saveShared')}
              </button>
            </p>
          ) : null}
          <p class="field fav-filter">
            <input id="filter-favourites" name="favourites" type="checkbox" value="1" checked={filter.favourites === true} />{' '}
            <label for="filter-favourites">{t('onlyFavourites')}</label>{' '}
            {/* Kept in its place (visibility) until the script has favourites to share: nothing moves. */}
            <a class="share-favourites" href={props.path} data-share-favourites>
              {t('shareFavourites')}
            </a>
            <span class="visually-hidden" role="status" data-share-status />
          </p>
        </>
      ) : null}
      <p class="actions">
        <button type="submit">{t('showHomes')}</button> <a href={`${props.path}#apartments`}>{t('clear')}</a>
      </p>
    </form>
  );
}

/** The pages of a long list (GOV.UK's pagination: previous, where you are, next), each a GET of the page. */
function ListPages(props: { path: string; filter: ListFilter; page: number; pages: number; t: Translate }) {
  const { page, pages, t } = props;
  const href = (n: number) => `${props.path}${filterQuery({ ...props.filter, page: n > 1 ? n : undefined })}#apartments`;
  return (
    <nav class="list-pages" aria-label={t('listPages')}>
      {page > 1 ? (
        <a href={href(page - 1)} rel="prev">
          <span aria-hidden="true">‹ </span>
          {t('previousPage')}
        </a>
      ) : null}
      <span>{t('pageOf', { page, pages })}</span>
      {page < pages ? (
        <a href={href(page + 1)} rel="next">
          {t('nextPage')}
          <span aria-hidden="true"> ›</span>
        </a>
      ) : null}
    </nav>
  );
}

/**
 * The sidebar (`complementary` "Homes"): the legend, the panel the selected home's card opens in (with
 * JavaScript; without it each home's link opens its own page), the filters and a compact list whose
 * names link to the homes' pages.
 */
export function Sidebar(props: {
  path: string;
  apartments: Apartment[];
  buildings: Building[];
  filter: ListFilter;
  hideFilters?: string[] | undefined;
  hideColumns?: string[] | undefined;
  locale: string;
  t: Translate;
  /** favouritesEnabled: a Save button on every row and card, and a filter. */
  favourites?: boolean | undefined;
}) {
  const { locale, t } = props;
  const favourites = props.favourites === true;
  const columns = hiddenSet(props.hideColumns);
  const visible = props.apartments.filter((a) => a.status !== 'HIDDEN');
  const rows = filtered(props.apartments, props.filter);
  const shown = new Set(rows.map((a) => a.id));
  // A long list is shown a page at a time (the rows that match, by the server: the script's filter needs
  // every row, so it leaves a paged list's form to the server); a short one holds every home, those the
  // filter leaves out hidden (the script filters the same rows in place).
  const paged = visible.length > LIST_PAGE_SIZE;
  const pages = Math.max(1, Math.ceil(rows.length / LIST_PAGE_SIZE));
  const page = Math.min(props.filter.page ?? 1, pages);
  const listed = paged ? rows.slice((page - 1) * LIST_PAGE_SIZE, page * LIST_PAGE_SIZE) : visible;
  const distinct = (values: Array<number | undefined>) => [...new Set(values.filter((v): v is number => v !== undefined))].sort((a, b) => a - b);
  const show = (c: string) => !columns.has(c);
  // Only a list that can be filtered by building says each home's (the filter's field: Filters below).
  const buildingFilter = !hiddenSet(props.hideFilters).has('building') && props.buildings.length >= 2;
  return (
    <aside class="sidebar" id="apartments" aria-label={t('homes')} data-module="homes">
      <div class="home-panel" id="home-panel" data-home-panel hidden />
      <div class="sidebar-scroll">
        <h2 id="apartments-title">{t('homes')}</h2>
        <Legend apartments={props.apartments} t={t} locale={locale} />
        <Filters
          path={props.path}
          filter={props.filter}
          hide={hiddenSet(props.hideFilters)}
          rooms={distinct(visible.map((a) => a.apartmentData.rooms))}
          floors={distinct(visible.map((a) => a.apartmentData.floor))}
          buildings={props.buildings}
          t={t}
          favourites={favourites}
        />
        <p class="count" id="apartments-count" aria-live="polite">
          {rows.length === visible.length ? t('homesCount', { count: rows.length }) : t('homesOf', { shown: rows.length, total: visible.length })}
        </p>
        <table class="homes" data-paged={paged ? '' : undefined}>
          <caption class="visually-hidden">{t('homesCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('name')}</th>
              {show('status') ? <th scope="col">{t('status')}</th> : null}
              {show('rooms') ? <th scope="col">{t('rooms')}</th> : null}
              {show('area') ? <th scope="col">{t('area')}</th> : null}
              {show('floor') ? (
                <th scope="col" class="col-floor">
                  {t('floor')}
                </th>
              ) : null}
              {show('price') ? <th scope="col">{t('price')}</th> : null}
              {favourites ? (
                <th scope="col">
                  <span class="visually-hidden">{t('favourites')}</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {listed.map((a) => {
              const facts = factsOf(a);
              return (
                // Every home is a row; those the filter leaves out are hidden (the script filters the same rows).
                <tr
                  hidden={!shown.has(a.id)}
                  key={a.id}
                  data-apartment-id={a.id}
                  data-status={a.status.toLowerCase()}
                  data-rooms={facts.rooms}
                  data-floor={facts.floor}
                  data-price-cents={facts.priceCents}
                  data-building={buildingFilter ? facts.building : undefined}
                >
                  <th scope="row">
                    <a href={homeHref(props.path, a.id)}>{a.name}</a>
                  </th>
                  {show('status') ? (
                    <td>
                      <span class={`status status-${a.status.toLowerCase()}`}>{t(a.status as 'ACTIVE')}</span>
                    </td>
                  ) : null}
                  {show('rooms') ? <td>{integer(a.apartmentData.rooms, locale) ?? '–'}</td> : null}
                  {show('area') ? <td>{area(a, locale) ?? '–'}</td> : null}
                  {show('floor') ? <td class="col-floor">{integer(a.apartmentData.floor, locale) ?? '–'}</td> : null}
                  {show('price') ? <td class="num">{shownPrice(a, locale) ?? t('onRequest')}</td> : null}
                  {favourites ? (
                    <td class="fav-cell">
                      <FavouriteButton name={a.name} t={t} />
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
        {/* The first paint waits for this marker (head/render.tsx `paintAfter`): the list is laid out whole. */}
        <span id="apartments-end" />
        {paged && pages > 1 ? <ListPages path={props.path} filter={props.filter} page={page} pages={pages} t={t} /> : null}
      </div>
    </aside>
  );
}
