import { type EditorDocument, type EditorShape, type StoredShape, fromStored, toStored } from '../document.js';
import { type History, canRedo, canUndo, commit, redo, startHistory, undo } from '../history.js';
import type { Reference } from '../svg-match.js';
import { type Box, type Point, type Size, parseAspectRatio, renderPixelsPerScreenPixel, viewBoxAt, zoomAround, zoomOf } from '../viewport.js';
import { Canvas, type Selection } from './canvas.js';
import { type Combobox, createCombobox } from './combobox.js';
import { assignSelected, cancelDrawing, deleteSelected, duplicateSelected, startDrawing } from './commands.js';
import { el, jsonData } from './dom.js';
import { attachKeyboard } from './keyboard.js';
import { type Frame, type Panels, buildPanels, renderHomes, renderShapeList } from './panels.js';
import { Persistence } from './persistence.js';
import { attachPointer } from './pointer.js';
import { type ShapesStore, httpShapesStore } from './store.js';
import { copyFrom, importFile, loadImporter } from './transfers.js';

/** Zoom steps of the buttons and keys. */
const ZOOM_STEP = 1.5;

export interface ShapeEditorOptions {
  /** Where shapes are loaded and saved; by default the URLs in the root's data attributes. */
  store?: ShapesStore;
}

/** What a mounted editor offers its page (and tests). */
export interface ShapeEditorHandle {
  readonly root: HTMLElement;
  /** Whether there are edits not saved. */
  dirty(): boolean;
  /** The shapes as they would be saved now. */
  shapes(): StoredShape[];
  destroy(): void;
}

let mounted = 0;

/**
 * The shape editor island. The root element carries the render and the URLs in data attributes and
 * its data in `<script type="application/json">` children (see README of the module, index.ts):
 * data-render-src, data-render-width, data-render-height, data-shapes-url, data-frame-shapes-url,
 * data-shapes-etag, data-import-src (the SVG import's bundle, loaded on first use), optional
 * data-csrf-header/data-csrf-token; data-shapes, data-references, data-frames.
 */
export class ShapeEditor implements ShapeEditorHandle {
  readonly render: Size;
  readonly canvas: Canvas;
  readonly panels: Panels;
  readonly combobox: Combobox;
  private history: History<EditorDocument>;
  /** The document on screen: the history's present, or a drag in progress. */
  live: EditorDocument;
  private saved: EditorDocument;
  view: Box;
  selection: Selection | null = null;
  /** Drawing: clicks add points (the Draw shape button, N, or a first click on empty space). */
  drawing = false;
  cursor: Point | null = null;
  private theirs: readonly StoredShape[] | null = null;
  readonly references: Reference[];
  private readonly byReference = new Map<string, Reference>();
  private readonly persistence: Persistence;
  private readonly cleanups: Array<() => void> = [];
  private readonly dialog: HTMLElement;

  constructor(
    readonly root: HTMLElement,
    options: ShapeEditorOptions = {},
  ) {
    const id = `shape-editor-${++mounted}`;
    const data = root.dataset;
    this.render = { width: Number(data.renderWidth), height: Number(data.renderHeight) };
    if (!(this.render.width > 0 && this.render.height > 0)) throw new Error('shape editor: data-render-width and data-render-height are required');
    const csrf = data.csrfHeader && data.csrfToken ? { [data.csrfHeader]: data.csrfToken } : undefined;
    const store =
      options.store ?? httpShapesStore({ shapesUrl: data.shapesUrl ?? '', frameShapesUrl: data.frameShapesUrl ?? '', ...(csrf ? { headers: csrf } : {}) });
    this.references = jsonData<Reference[]>(root, 'data-references', []);
    for (const r of this.references) this.byReference.set(`${r.referenceType}:${r.referenceId}`, r);
    const frames = jsonData<Frame[]>(root, 'data-frames', []);
    const initial = fromStored(jsonData<StoredShape[]>(root, 'data-shapes', []));
    this.history = startHistory(initial);
    this.live = initial;
    this.saved = initial;
    this.view = { x: 0, y: 0, ...this.render };

    this.canvas = new Canvas(this.render, data.renderSrc ?? '', (s) => this.referenceOf(s));
    this.panels = buildPanels(id, frames);
    this.canvas.svg.setAttribute('aria-describedby', this.panels.help.id);
    this.combobox = createCombobox(
      id,
      () => this.references,
      (r) => this.live.shapes.some((s) => s.referenceId === r.referenceId),
      (r) => assignSelected(this, r),
    );
    this.dialog = el('div', { class: 'se-dialog' });
    const aside = el('aside', { class: 'se-aside' });
    aside.append(
      this.combobox.element,
      el('h3', {}, 'Shapes on this frame'),
      this.panels.shapeList,
      el('h3', {}, 'Homes'),
      this.panels.homesSummary,
      this.panels.homes,
    );
    const main = el('div', { class: 'se-main' });
    main.append(this.canvas.svg, aside);
    root.classList.add('se-ready');
    root.append(this.panels.toolbar, this.panels.alert, this.dialog, main, this.panels.help, this.panels.live);

    this.persistence = new Persistence(this, store, data.shapesEtag ?? '');
    this.wireButtons(frames, store);
    this.cleanups.push(attachPointer(this), attachKeyboard(this));
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!this.dirty()) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', beforeUnload);
    this.cleanups.push(() => window.removeEventListener('beforeunload', beforeUnload));
    const resize = new ResizeObserver(() => this.refresh(false));
    resize.observe(this.canvas.svg);
    this.cleanups.push(() => resize.disconnect());
    this.refresh();
    if (!jsonData<unknown>(root, 'data-shapes', null) || !data.shapesEtag) void this.persistence.reload();
  }

  dirty(): boolean {
    return this.history.present !== this.saved || this.live !== this.history.present;
  }

  shapes(): StoredShape[] {
    return toStored(this.history.present);
  }

  destroy(): void {
    for (const c of this.cleanups.splice(0)) c();
  }

  referenceOf(shape: EditorShape): Reference | undefined {
    return shape.referenceType && shape.referenceId ? this.byReference.get(`${shape.referenceType}:${shape.referenceId}`) : undefined;
  }

  /** Render pixels per screen pixel now (handles, snapping and hit radii are screen pixels). */
  unit(): number {
    const rect = this.canvas.svg.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return 1;
    return renderPixelsPerScreenPixel(rect, this.view, parseAspectRatio(this.canvas.svg.getAttribute('preserveAspectRatio')));
  }

  announce(message: string): void {
    // A new text node each time: screen readers announce a repeated message again.
    this.panels.live.textContent = '';
    window.setTimeout(() => {
      this.panels.live.textContent = message;
    }, 30);
  }

  /** Shows a problem in the alert region (or clears it). */
  alert(message: string): void {
    this.panels.alert.textContent = message;
  }

  /** A change the user made: recorded for undo, shown, and (with a message) announced. */
  apply(next: EditorDocument, message?: string): void {
    this.history = commit(this.history, next);
    this.live = this.history.present;
    if (this.selection && !this.live.shapes[this.selection.shape]) this.selection = null;
    this.refresh();
    if (message) this.announce(message);
  }

  /** A step of a drag: shown, not recorded (the drag records one step when it ends). */
  preview(next: EditorDocument): void {
    this.live = next;
    this.refresh(false);
  }

  /** Ends a drag: its last state becomes one undo step. */
  finishDrag(message?: string): void {
    if (this.live !== this.history.present) this.apply(this.live, message);
  }

  setView(view: Box): void {
    this.view = view;
    this.refresh(false);
  }

  zoomBy(factor: number, anchor?: Point): void {
    const centre = anchor ?? { x: this.view.x + this.view.width / 2, y: this.view.y + this.view.height / 2 };
    this.setView(zoomAround(this.render, this.view, factor, centre));
    this.announce(`Zoom ${Math.round(zoomOf(this.render, this.view) * 100)}%`);
  }

  select(selection: Selection | null): void {
    this.selection = selection;
    this.refresh();
  }

  undo(): void {
    if (!canUndo(this.history)) return;
    this.history = undo(this.history);
    this.afterTimeTravel('Undone');
  }

  redo(): void {
    if (!canRedo(this.history)) return;
    this.history = redo(this.history);
    this.afterTimeTravel('Redone');
  }

  private afterTimeTravel(message: string): void {
    this.live = this.history.present;
    this.drawing = this.live.draft !== null;
    if (this.selection && !this.live.shapes[this.selection.shape]) this.selection = null;
    this.refresh();
    this.announce(message);
  }

  /** Replaces every shape (stored ones loaded): one undo step, and the state now saved. */
  replaceAll(next: EditorDocument, message?: string): void {
    this.history = commit(this.history, next);
    this.live = next;
    this.saved = next;
    this.selection = null;
    this.refresh();
    if (message) this.announce(message);
  }

  /** Records that `doc` is what the server holds now (after a save). */
  markSaved(doc: EditorDocument): void {
    this.saved = doc;
    this.refresh();
  }

  /** The document as it would be saved (the history's present, not a drag in progress). */
  present(): EditorDocument {
    return this.history.present;
  }

  /** Their shapes, drawn dashed while a conflict is shown (null: none). */
  showTheirs(shapes: readonly StoredShape[] | null): void {
    this.theirs = shapes;
    this.refresh(false);
  }

  /** Shows `content` in the dialog area (an import report, a conflict), or empties it. */
  showDialog(content: HTMLElement | null): void {
    this.dialog.replaceChildren(...(content ? [content] : []));
    if (content) content.querySelector('button')?.focus();
  }

  private wireButtons(frames: readonly Frame[], store: ShapesStore): void {
    const p = this.panels;
    p.draw.addEventListener('click', () => (this.drawing ? cancelDrawing(this) : startDrawing(this)));
    p.undo.addEventListener('click', () => this.undo());
    p.redo.addEventListener('click', () => this.redo());
    p.duplicate.addEventListener('click', () => duplicateSelected(this));
    p.remove.addEventListener('click', () => deleteSelected(this));
    p.zoomIn.addEventListener('click', () => this.zoomBy(ZOOM_STEP));
    p.zoomOut.addEventListener('click', () => this.zoomBy(1 / ZOOM_STEP));
    p.fit.addEventListener('click', () => this.setView(viewBoxAt(this.render, 1, { x: 0, y: 0 })));
    p.copy.addEventListener('click', () => {
      const frame = frames.find((f) => f.id === p.copyFrom.value);
      if (frame) void copyFrom(this, store, frame);
    });
    const importerSrc = this.root.dataset.importSrc ?? '';
    p.importButton.addEventListener('click', () => {
      // Fetched while the user picks the file; a failure is reported when the file is read.
      loadImporter(importerSrc).catch(() => undefined);
      p.importFile.click();
    });
    p.importFile.addEventListener('change', () => {
      const file = p.importFile.files?.[0];
      p.importFile.value = '';
      if (file) void importFile(this, file, importerSrc);
    });
    p.save.addEventListener('click', () => void this.persistence.save());
  }

  /** Shows the state: the drawing area always; lists and controls too unless `full` is false (a drag). */
  refresh(full = true): void {
    this.canvas.update({
      doc: this.live,
      view: this.view,
      selection: this.selection,
      cursor: this.cursor,
      theirs: this.theirs,
      unit: this.unit(),
    });
    if (!full) return;
    const p = this.panels;
    p.undo.disabled = !canUndo(this.history);
    p.redo.disabled = !canRedo(this.history);
    p.duplicate.disabled = this.selection === null;
    p.remove.disabled = this.selection === null;
    p.draw.setAttribute('aria-pressed', String(this.drawing));
    p.save.textContent = 'Save shapes';
    p.save.classList.toggle('se-dirty', this.dirty());
    const shape = this.selection ? this.live.shapes[this.selection.shape] : undefined;
    this.combobox.setTarget(shape && this.referenceOf(shape), shape !== undefined);
    renderShapeList(
      p.shapeList,
      this.live.shapes,
      this.selection?.shape,
      (s) => this.referenceOf(s),
      (i) => {
        this.select({ shape: i, ring: 0, point: null });
        this.canvas.svg.focus();
      },
    );
    const withShape = new Set(this.live.shapes.map((s) => `${s.referenceType}:${s.referenceId}`));
    renderHomes(p.homes, p.homesSummary, this.references, withShape);
  }
}

/** Mounts an editor on every `[data-module="shape-editor"]` in scope that has none yet. */
export function initShapeEditors(scope: ParentNode = document, options: ShapeEditorOptions = {}): ShapeEditorHandle[] {
  return Array.from(scope.querySelectorAll<HTMLElement>('[data-module="shape-editor"]:not(.se-ready)')).map((root) => new ShapeEditor(root, options));
}
