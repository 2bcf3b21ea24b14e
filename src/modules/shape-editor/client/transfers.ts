import { addShapes } from '../document.js';
import { importSvg } from '../import.js';
import { MAX_SVG_LENGTH } from '../svg-import.js';
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

/** "Import SVG": the file read and matched in the browser, its report shown; nothing changes until "Add matched shapes". */
export async function importFile(editor: ShapeEditor, file: File): Promise<void> {
  if (file.size > MAX_SVG_LENGTH) {
    editor.alert(`The file is larger than ${MAX_SVG_LENGTH / 1024 / 1024} MB`);
    return;
  }
  showReport(editor, importSvg(await file.text(), editor.render, editor.references));
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
