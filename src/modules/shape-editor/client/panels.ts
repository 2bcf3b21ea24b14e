import type { EditorShape } from '../document.js';
import type { ImportReport, Reference } from '../svg-match.js';
import { button, el } from './dom.js';

/** The editor's controls around the drawing area, with stable accessible names (tests find them by name). */
export interface Panels {
  toolbar: HTMLElement;
  draw: HTMLButtonElement;
  undo: HTMLButtonElement;
  redo: HTMLButtonElement;
  duplicate: HTMLButtonElement;
  remove: HTMLButtonElement;
  zoomIn: HTMLButtonElement;
  zoomOut: HTMLButtonElement;
  fit: HTMLButtonElement;
  copyFrom: HTMLSelectElement;
  copy: HTMLButtonElement;
  importButton: HTMLButtonElement;
  importFile: HTMLInputElement;
  save: HTMLButtonElement;
  shapeList: HTMLUListElement;
  homes: HTMLUListElement;
  homesSummary: HTMLParagraphElement;
  help: HTMLParagraphElement;
  live: HTMLDivElement;
  alert: HTMLDivElement;
}

export interface Frame {
  id: string;
  name: string;
}

export function buildPanels(id: string, frames: readonly Frame[]): Panels {
  const toolbar = el('div', { class: 'se-toolbar', role: 'toolbar', 'aria-label': 'Shape editor tools' });
  const copyFrom = el('select', { id: `${id}-copy-from`, 'aria-label': 'Frame to copy from' });
  copyFrom.append(...frames.map((f) => el('option', { value: f.id }, f.name)));
  const importFile = el('input', { type: 'file', accept: '.svg,image/svg+xml', class: 'se-file', tabindex: '-1', 'aria-hidden': 'true' });
  const panels: Panels = {
    toolbar,
    draw: button('Draw shape', { 'aria-pressed': 'false', 'aria-keyshortcuts': 'N' }),
    undo: button('Undo', { 'aria-keyshortcuts': 'Control+Z' }),
    redo: button('Redo', { 'aria-keyshortcuts': 'Control+Shift+Z' }),
    duplicate: button('Duplicate shape'),
    remove: button('Delete', { 'aria-keyshortcuts': 'Delete' }),
    zoomIn: button('Zoom in', { 'aria-keyshortcuts': '+' }),
    zoomOut: button('Zoom out', { 'aria-keyshortcuts': '-' }),
    fit: button('Fit', { 'aria-keyshortcuts': '0' }),
    copyFrom,
    copy: button('Copy shapes from'),
    importButton: button('Import SVG'),
    importFile,
    save: button('Save shapes', { class: 'se-save' }),
    shapeList: el('ul', { class: 'se-shape-list', 'aria-label': 'Shapes on this frame' }),
    // A scrolling list of text only: focusable so the keyboard can scroll it (WCAG 2.1.1).
    homes: el('ul', { class: 'se-homes', 'aria-label': 'Apartments and buildings', tabindex: '0' }),
    homesSummary: el('p', { class: 'se-homes-summary' }),
    help: el(
      'p',
      { id: `${id}-help`, class: 'se-help' },
      'Click to add points; click the first point or press Enter to close a shape. Drag a point or a shape to move it; drag empty space (or hold Space) to pan; the wheel or two fingers zoom. ' +
        'By keyboard: N starts a shape, arrow keys move the crosshair, Space adds a point, Delete removes the last one, Enter closes, Escape cancels. With a shape selected, [ and ] choose a point, arrow keys move it 1 pixel (Shift: 10), Delete removes it. ' +
        'Hold Alt while clicking to place a point without snapping to other shapes.',
    ),
    live: el('div', { class: 'se-live', role: 'status', 'aria-live': 'polite' }),
    alert: el('div', { class: 'se-alert', role: 'alert' }),
  };
  const group = (label: string, ...items: HTMLElement[]) => {
    const g = el('div', { class: 'se-group', role: 'group', 'aria-label': label });
    g.append(...items);
    return g;
  };
  toolbar.append(
    group('Edit', panels.draw, panels.undo, panels.redo, panels.duplicate, panels.remove),
    group('Zoom', panels.zoomIn, panels.zoomOut, panels.fit),
    group('Copy', copyFrom, panels.copy),
    group('Import', panels.importButton, importFile),
    group('Save', panels.save),
  );
  if (frames.length === 0) {
    copyFrom.disabled = true;
    panels.copy.disabled = true;
  }
  return panels;
}

/** What a list was last drawn from: a redraw with the same inputs changes nothing (a save, a toolbar step). */
const drawnShapes = new WeakMap<HTMLUListElement, { shapes: readonly EditorShape[]; selected: number | undefined }>();
const drawnHomes = new WeakMap<HTMLUListElement, { references: readonly Reference[]; withShape: string }>();

/**
 * The list of shapes on this frame: one button each, selecting it. The shapes are immutable values: with
 * the same list as last time only the pressed button changes (a selection), and nothing at all after a save.
 */
export function renderShapeList(
  list: HTMLUListElement,
  shapes: readonly EditorShape[],
  selected: number | undefined,
  referenceOf: (s: EditorShape) => Reference | undefined,
  onSelect: (i: number) => void,
): void {
  const drawn = drawnShapes.get(list);
  drawnShapes.set(list, { shapes, selected });
  if (drawn?.shapes === shapes) {
    if (drawn.selected === selected) return;
    const pressed = (i: number | undefined, value: boolean) => {
      if (i !== undefined) list.children[i]?.querySelector('button')?.setAttribute('aria-pressed', String(value));
    };
    pressed(drawn.selected, false);
    pressed(selected, true);
    return;
  }
  // Item by item: a button whose label is unchanged stays (its handler selects by index, which is the same).
  shapes.forEach((shape, i) => {
    const label = `Shape ${i + 1}: ${referenceOf(shape)?.name ?? 'no apartment or building yet'}`;
    const old = list.children[i]?.firstElementChild;
    if (old) {
      if (old.textContent !== label) old.textContent = label;
      old.setAttribute('aria-pressed', String(selected === i));
      return;
    }
    const b = button(label, { 'aria-pressed': String(selected === i) });
    b.addEventListener('click', () => onSelect(i));
    const item = el('li');
    item.append(b);
    list.append(item);
  });
  while (list.children.length > shapes.length) list.lastElementChild?.remove();
}

/**
 * The estate's apartments and buildings, each marked with whether it has a shape on this frame; missing ones
 * first. Redrawn only when which homes have a shape changed.
 */
export function renderHomes(list: HTMLUListElement, summary: HTMLParagraphElement, references: readonly Reference[], withShape: ReadonlySet<string>): void {
  const key = references.map((r) => (withShape.has(`${r.referenceType}:${r.referenceId}`) ? '1' : '0')).join('');
  const drawn = drawnHomes.get(list);
  if (drawn?.references === references && drawn.withShape === key) return;
  drawnHomes.set(list, { references, withShape: key });
  const has = (r: Reference) => withShape.has(`${r.referenceType}:${r.referenceId}`);
  const missing = references.filter((r) => !has(r));
  summary.textContent = `${references.length - missing.length} of ${references.length} have a shape on this frame; ${missing.length} missing.`;
  list.replaceChildren(
    ...[...missing, ...references.filter(has)].map((r) =>
      el('li', { class: has(r) ? 'se-home se-home-done' : 'se-home se-home-missing' }, `${r.name}: ${has(r) ? 'has a shape' : 'missing'}`),
    ),
  );
}

/** The import report: what matched, what did not, duplicates and notes, with the choice to add the matched shapes. */
export function renderReport(report: ImportReport, onAccept: () => void, onCancel: () => void): HTMLElement {
  const box = el('section', { class: 'se-report', 'aria-label': 'SVG import report' });
  const heading = el('h3', {}, 'SVG import');
  const summary = el(
    'p',
    {},
    `${report.matched.length} matched, ${report.unmatched.length} unmatched, ${report.duplicates.length} duplicate${report.duplicates.length === 1 ? '' : 's'}` +
      (report.unnamed > 0 ? `, ${report.unnamed} without a name` : '') +
      '. Nothing is saved until you save the shapes.',
  );
  const section = (title: string, items: string[]) => {
    if (items.length === 0) return [];
    const list = el('ul', { 'aria-label': title });
    list.append(...items.map((t) => el('li', {}, t)));
    return [el('h4', {}, `${title} (${items.length})`), list];
  };
  const accept = button('Add matched shapes');
  const cancel = button('Cancel import');
  accept.disabled = report.matched.length === 0;
  accept.addEventListener('click', onAccept);
  cancel.addEventListener('click', onCancel);
  box.append(
    heading,
    summary,
    ...section(
      'Matched',
      report.matched.map((m) => (m.name === m.label ? m.name : `${m.name} → ${m.label}`)),
    ),
    ...section('Unmatched', report.unmatched),
    ...section('Duplicates', report.duplicates),
    ...section('Notes', report.notes),
    accept,
    cancel,
  );
  return box;
}

/** The conflict: someone else saved; theirs are shown dashed; reload theirs, or keep mine and overwrite. */
export function renderConflict(theirs: number, onReload: () => void, onOverwrite: () => void): HTMLElement {
  const box = el('section', { class: 'se-conflict', 'aria-label': 'Conflict' });
  box.append(
    el(
      'p',
      {},
      `Someone else saved this frame’s shapes since you opened it: theirs (${theirs} shape${theirs === 1 ? '' : 's'}) are shown dashed. Nothing of yours was saved.`,
    ),
  );
  const reload = button('Reload their shapes');
  const overwrite = button('Keep mine and overwrite');
  reload.addEventListener('click', onReload);
  overwrite.addEventListener('click', onOverwrite);
  box.append(reload, overwrite);
  return box;
}
