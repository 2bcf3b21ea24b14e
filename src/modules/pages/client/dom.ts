/** Small DOM helpers shared by the islands (kept tiny: the page's script budget is 20 KB). */
export const $ = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T | null => root.querySelector<T>(selector);
export const $$ = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T[] => Array.from(root.querySelectorAll<T>(selector));

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) if (value !== undefined) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** True for a click the browser should handle itself (new tab, download, …). */
export const modified = (event: MouseEvent) => event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;

/**
 * A drag is not also a click on what it ended on (a shape's link): the click that ends a drag is stopped
 * before it reaches anything in `root` (capture). `dragged()` says whether a drag just ended, and resets it.
 */
export function swallowClickAfterDrag(root: EventTarget, dragged: () => boolean): void {
  root.addEventListener(
    'click',
    (event) => {
      if (!dragged()) return;
      event.preventDefault();
      event.stopPropagation();
    },
    true,
  );
}
