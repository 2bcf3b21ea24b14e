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

/** A navigator and its nested ones, as far as the view rules need them. */
export interface NavigatorTree {
  id: string;
  nested: readonly NavigatorTree[];
}

/**
 * The ids from the top navigator down to the nested navigator `id` (the top one first), or null when `id`
 * names no nested navigator of `top` (unknown, malformed, the top one itself): the top navigator is shown.
 * Both sides show the last of the chain, each navigator above it giving its place to the next one down
 * (server: the `is-shown` and `shows-nested` classes in the HTML; browser: client/nested.ts, the same classes).
 */
export function viewChain(top: NavigatorTree, id: string | null | undefined): string[] | null {
  if (!id) return null;
  const wanted = id.toLowerCase();
  const walk = (node: NavigatorTree): string[] | null => {
    if (node.id.toLowerCase() === wanted) return [node.id];
    for (const child of node.nested) {
      const below = walk(child);
      if (below) return [node.id, ...below];
    }
    return null;
  };
  const chain = walk(top);
  return chain && chain.length > 1 ? chain : null;
}

/** The classes of navigator `id`'s section while `chain` (viewChain) is shown: '' when it is not on it. */
export function viewClasses(chain: readonly string[] | null, id: string): string {
  const at = chain ? chain.indexOf(id) : -1;
  if (at < 0 || !chain) return '';
  return [at > 0 ? 'is-shown' : '', at < chain.length - 1 ? 'shows-nested' : ''].filter(Boolean).join(' ');
}

/**
 * Where a nested navigator's "Back to <parent>" link goes: the page showing the parent (`?view={parentId}`,
 * none for the top one), the list's filter (`filterSearch`, `?…` or '') kept, at the parent's section. An
 * address, not a fragment alone: on a page the server rendered with `?view=`, the parent's section is hidden,
 * so a fragment would go nowhere without JavaScript.
 */
export function backHref(path: string, filterSearch: string, parentId: string, parentIsTop: boolean): string {
  return `${path || '/'}${searchWithView(filterSearch, parentIsTop ? null : parentId)}#${navigatorAnchor(parentId)}`;
}
