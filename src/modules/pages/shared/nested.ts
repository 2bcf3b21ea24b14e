/**
 * Nested navigators (a building's own navigator, opened from its shape): the addresses the server
 * render writes and the browser (components/navigator/nested.client.ts) reads, in one place. Without JavaScript a nested
 * navigator is a section below its parent, reached by its fragment; with it, it takes its parent's
 * place and the address says which one is shown: `?view={navigatorId}`.
 */
export const VIEW_PARAM = 'view';

/** The id of a navigator's section (and so its fragment). */
export const navigatorAnchor = (navigatorId: string) => `navigator-${navigatorId}`;

/** The navigator an address shows: `?view=` first, else a `#navigator-{id}` fragment; null for the top one. */
export function viewOfAddress(search: string, hash: string): string | null {
  const view = new URLSearchParams(search).get(VIEW_PARAM);
  if (view) return view;
  const prefix = `#${navigatorAnchor('')}`;
  return hash.startsWith(prefix) && hash.length > prefix.length ? decodeURIComponent(hash.slice(prefix.length)) : null;
}

/** The query string of `search` showing navigator `navigatorId` (null: the top one), the other fields kept. */
export function searchWithView(search: string, navigatorId: string | null): string {
  const params = new URLSearchParams(search);
  if (navigatorId) params.set(VIEW_PARAM, navigatorId);
  else params.delete(VIEW_PARAM);
  const query = params.toString();
  return query ? `?${query}` : '';
}
