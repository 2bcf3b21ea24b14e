/** Small DOM helpers of the shape editor island. */
export const SVG_NS = 'http://www.w3.org/2000/svg';

/** An HTML element with attributes (values set as text, never parsed as HTML) and optional text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An SVG element with attributes. */
export function svgEl<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string> = {}): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

/** A button with a visible name (its accessible name). */
export function button(text: string, attrs: Record<string, string> = {}): HTMLButtonElement {
  return el('button', { type: 'button', ...attrs }, text);
}

/** The JSON of a `<script type="application/json" data-…>` inside root (data, never executed). */
export function jsonData<T>(root: Element, attribute: string, fallback: T): T {
  const node = root.querySelector(`script[type="application/json"][${attribute}]`);
  if (!node?.textContent) return fallback;
  try {
    return JSON.parse(node.textContent) as T;
  } catch {
    return fallback;
  }
}
