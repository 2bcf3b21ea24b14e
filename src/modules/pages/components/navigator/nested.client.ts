import { $, $$, modified } from '../../client/dom.js';
import { navigatorAnchor, searchWithView, viewOfAddress } from '../../shared/nested.js';
import { NAVIGATOR } from './client.js';

/**
 * Nested navigators in place (server: `section.navigator.nested[data-parent-id]` inside its parent's
 * section, reached by a building's shape `svg a[data-navigator-id]`, and a "Back to <parent>" link
 * `a[data-back]`). With the script only the navigator shown is visible: a building's shape shows its
 * navigator in place of the parent, whose frame stays where it was (it is only hidden); the address
 * follows (`?view=`, shared/nested.ts) and the browser's Back and Forward move between them.
 */
export function initNested(): void {
  const nested = $$(`${NAVIGATOR}[data-parent-id]`);
  if (nested.length === 0) return;
  /** Shows the navigator `id` (null or unknown: the top one); what took the focus to it is given it back on the way out. */
  const show = (id: string | null, focus: 'back' | 'opener' | null) => {
    const target = id ? document.getElementById(navigatorAnchor(id)) : null;
    const shown = target?.matches(`${NAVIGATOR}[data-parent-id]`) ? target : null;
    const previous = $(`${NAVIGATOR}.is-shown`);
    for (const section of $$(NAVIGATOR)) section.classList.remove('is-shown', 'shows-nested');
    // Each ancestor gives its place to the next one down the chain.
    for (let child = shown; child; ) {
      child.classList.add('is-shown');
      const parent: HTMLElement | null | undefined = child.parentElement?.closest(NAVIGATOR);
      parent?.classList.add('shows-nested');
      child = parent?.matches('[data-parent-id]') ? parent : null;
    }
    if (focus === 'back' && shown) $<HTMLElement>('a[data-back]', shown)?.focus();
    if (focus === 'opener' && previous && previous !== shown) {
      // Back on the parent: the building's shape that opened the child, else the back link or frame shown.
      const opener = $$<SVGAElement>(`svg a[data-navigator-id="${CSS.escape(previous.dataset.navigatorId ?? '')}"]`).find((a) => a.getClientRects().length > 0);
      opener?.focus();
    }
  };
  const go = (id: string | null, focus: 'back' | 'opener') => {
    history.pushState({ view: id }, '', `${location.pathname}${searchWithView(location.search, id)}`);
    show(id, focus);
  };

  document.addEventListener('click', (event) => {
    const target = event.target as Element;
    const open = target.closest<SVGAElement>('svg a[data-navigator-id]');
    const back = target.closest<HTMLAnchorElement>('a[data-back]');
    if ((!open && !back) || modified(event) || event.defaultPrevented) return;
    event.preventDefault();
    if (open) go(open.dataset.navigatorId ?? null, 'back');
    else if (back) {
      const parent = back.dataset.back ?? '';
      go($(`#${CSS.escape(navigatorAnchor(parent))}[data-parent-id]`) ? parent : null, 'opener');
    }
  });
  addEventListener('popstate', () => show(viewOfAddress(location.search, ''), 'opener'));
  // An address that names a nested navigator (a shared `?view=`, or the fragment of the plain links).
  show(viewOfAddress(location.search, location.hash), null);
}
