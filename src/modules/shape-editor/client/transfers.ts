import { addShapes } from '../document.js';
import type { importSvg } from '../import.js';
import { MAX_SVG_LENGTH } from '../limits.js';
import { type ImportReport, withImported } from '../svg-match.js';
import type { Frame } from './panels.js';
import { renderReport } from './panels.js';
import type { ShapeEditor } from './shape-editor.client.js';
import type { ShapesStore } from './store.js';

/** "Copy shapes from": another frame's shapes added to this one's, same positions, references kept (one undo step). */
export async function copyFrom(editor: ShapeEditor, store: ShapesStore, frame: Frame): Promise<void> {
  try {
    const shapes = await store.loadFrame(frame.id);
    editor.apply(addShapes(editor.live, shapes), `Copied ${shapes.length} shapes from ${frame.name}`);
  } catch (error) {
    editor.alert(`The shapes of ${frame.name} could not be read: ${(error as Error).message}`);
  }
}

type Importer = { importSvg: typeof importSvg };
const importers = new Map<string, Promise<Importer>>();

/**
 * The SVG import code (its own bundle, the root's data-import-src), fetched once, when "Import SVG" is
 * first used: opening the editor never downloads it.
 */
export function loadImporter(src: string): Promise<Importer> {
  let loading = importers.get(src);
  if (!loading) {
    loading = import(src) as Promise<Importer>;
    importers.set(src, loading);
    loading.catch(() => importers.delete(src));
  }
  return loading;
}

/** "Import SVG": the file read and matched in the browser, its report shown; nothing changes until "Add matched shapes". */
export async function importFile(editor: ShapeEditor, file: File, importerSrc: string): Promise<void> {
  if (file.size > MAX_SVG_LENGTH) {
    editor.alert(`The file is larger than ${MAX_SVG_LENGTH / 1024 / 1024} MB`);
    return;
  }
  let importer: Importer;
  try {
    importer = await loadImporter(importerSrc);
  } catch (error) {
    editor.alert(`The SVG import could not be loaded: ${(error as Error).message}`);
    return;
  }
  showReport(editor, importer.importSvg(await file.text(), editor.render, editor.references));
}

function showReport(editor: ShapeEditor, report: ImportReport): void {
  const done = (message: string) => {
    editor.showDialog(null);
    editor.canvas.svg.focus();
    editor.announce(message);
  };
  editor.showDialog(
    renderReport(
      report,
      () => {
        const { kept, added } = withImported(editor.live.shapes, report);
        editor.apply(addShapes({ ...editor.live, shapes: kept }, added));
        done(`Imported ${report.matched.length} shapes; save to keep them`);
      },
      () => done('Import cancelled'),
    ),
  );
  editor.announce(`SVG import: ${report.matched.length} matched, ${report.unmatched.length} unmatched, ${report.duplicates.length} duplicates`);
}
