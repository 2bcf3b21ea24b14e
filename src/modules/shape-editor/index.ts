/**
 * The shape editor (issue 36): what the dashboard's screen and server use. The geometry, the document
 * and the SVG import are plain modules that run in the browser bundle and on the server alike; the
 * island (client/) holds state and events only.
 *
 *   viewport.ts   pointer position <-> render pixels at any zoom, pan and element size; zoom and pan
 *   polygons.ts   polygons <-> SVG path data, hit testing, snapping
 *   document.ts   the edited shapes as immutable values, every edit a function (history.ts: undo/redo)
 *   svg-import.ts an Inkscape/Figma/Illustrator SVG's named shapes in render pixels (saxes, no DOM)
 *   svg-match.ts  those shapes matched to apartments and buildings: the import report
 *   import.ts     both together: importSvg(text, renderSize, references) -> ImportReport
 *   client/       the island: shape-editor.client.ts (mount), its store (save/load behind an interface)
 */
export { importSvg } from './import.js';
export { type ImportReport, type MatchedShape, type Reference, withImported } from './svg-match.js';
export { MAX_SVG_LENGTH } from './svg-import.js';
export type { StoredShape } from './document.js';
