import { parseSvgShapes } from './svg-import.js';
import { type ImportReport, type Reference, matchShapes } from './svg-match.js';
import type { Size } from './viewport.js';

/**
 * The SVG import, as the editor and the server's no-script form both run it: the file's named shapes
 * matched to the estate's apartments and buildings, in render pixels, as a report to show before
 * anything is saved. A file that cannot be read is a report with one note and nothing matched.
 */
export function importSvg(text: string, render: Size, references: readonly Reference[]): ImportReport {
  try {
    return matchShapes(parseSvgShapes(text, render), references, render);
  } catch (error) {
    return { matched: [], unmatched: [], duplicates: [], unnamed: 0, notes: [(error as Error).message] };
  }
}
