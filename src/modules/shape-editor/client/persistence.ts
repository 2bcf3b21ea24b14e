import { fromStored, toStored, unsavable } from '../document.js';
import type { StoredShape } from '../document.js';
import { renderConflict } from './panels.js';
import type { ShapeEditor } from './shape-editor.client.js';
import type { ShapesStore } from './store.js';

/**
 * Loading and saving a frame's shapes: the ETag they were read with, the save with If-Match, and a
 * conflict (someone else saved first) shown with their shapes and a choice: reload theirs, or keep
 * mine and overwrite (the save again with their ETag). Never an overwrite without that choice.
 */
export class Persistence {
  private theirs: { shapes: StoredShape[]; etag: string } | null = null;

  constructor(
    private readonly editor: ShapeEditor,
    private readonly store: ShapesStore,
    private etag: string,
  ) {}

  /** Loads the frame's shapes as stored now (start-up without data). */
  async reload(): Promise<void> {
    try {
      const { shapes, etag } = await this.store.load();
      this.etag = etag;
      this.editor.replaceAll(fromStored(shapes));
    } catch (error) {
      this.editor.alert(`The shapes could not be loaded: ${(error as Error).message}`);
    }
  }

  async save(overwrite = false): Promise<void> {
    const editor = this.editor;
    const doc = editor.present();
    const problem = unsavable(doc);
    if (problem) {
      editor.alert(`Not saved: ${problem}. Select each and choose its apartment or building.`);
      return;
    }
    if (overwrite && this.theirs) this.etag = this.theirs.etag;
    editor.panels.save.disabled = true;
    const result = await this.store.save(toStored(doc), this.etag);
    editor.panels.save.disabled = false;
    if (result.kind === 'saved') {
      this.etag = result.etag;
      this.theirs = null;
      editor.showTheirs(null);
      editor.showDialog(null);
      editor.alert('');
      editor.markSaved(doc);
      editor.announce(`Saved ${result.count} shape${result.count === 1 ? '' : 's'}`);
    } else if (result.kind === 'conflict') await this.showConflict();
    else editor.alert(`Not saved: ${result.message}`);
  }

  private async showConflict(): Promise<void> {
    const editor = this.editor;
    let theirs: { shapes: StoredShape[]; etag: string };
    try {
      theirs = await this.store.load();
    } catch (error) {
      editor.alert(`Someone else saved these shapes, and theirs could not be read: ${(error as Error).message}`);
      return;
    }
    this.theirs = theirs;
    editor.alert('Not saved: someone else saved this frame’s shapes since you opened it.');
    editor.showTheirs(theirs.shapes);
    editor.showDialog(
      renderConflict(
        theirs.shapes.length,
        () => {
          this.theirs = null;
          this.etag = theirs.etag;
          editor.showTheirs(null);
          editor.showDialog(null);
          editor.alert('');
          editor.replaceAll(fromStored(theirs.shapes), `Reloaded: ${theirs.shapes.length} shapes`);
        },
        () => void this.save(true),
      ),
    );
  }
}
