/**
 * The island's SVG import, a bundle of its own (scripts/build-editor-assets.mjs: shape-editor-import.js):
 * fetched only when "Import SVG" is used (client/transfers.ts), so opening the editor does not download
 * the SVG reader (saxes, svgpath).
 */
export { importSvg } from '../import.js';
