import type { Database } from '../../db/client.js';
import { notFound } from '../../errors.js';
import { isUuid } from '../../ids.js';
import { type ImportReport, type Reference, importSvg, withImported } from '../shape-editor/index.js';
import { optionsOf } from './document.js';
import type { NavigatorFrames } from './frames.js';
import { navigatorsRepository as repo } from './repository.js';
import type { NavigatorImage, ShapeInput } from './schemas.js';

/**
 * The SVG import on the server: the shape editor's no-script path (a plain form posting the file).
 * The same reader and matcher as the editor in the browser (src/modules/shape-editor), against the
 * navigator's estate's apartments and buildings, in the overlay's coordinates (the renders' pixels).
 */
export class NavigatorSvgImport {
  constructor(
    private readonly db: Database,
    private readonly frames: NavigatorFrames,
  ) {}

  /** The estate's apartments and buildings as the import matches them (and the editor's combobox lists them). */
  homes(organizationId: string, estateId: string): Promise<Reference[]> {
    return repo.homesOf(this.db, organizationId, estateId);
  }

  /** What importing `svg` into the frame would do: matched, unmatched and duplicate names, nothing saved. */
  async report(organizationId: string, navigatorId: string, frameId: string, svg: string): Promise<ImportReport> {
    const navigator = isUuid(navigatorId) ? await repo.get(this.db, organizationId, navigatorId) : undefined;
    if (!navigator) throw notFound('Navigator', navigatorId);
    const frame = isUuid(frameId) ? await repo.getFrame(this.db, organizationId, navigator.id, frameId) : undefined;
    if (!frame) throw notFound('Navigator image', frameId);
    const { overlayWidth, overlayHeight } = optionsOf(navigator);
    return importSvg(svg, { width: overlayWidth, height: overlayHeight }, await repo.homesOf(this.db, organizationId, navigator.estateId));
  }

  /**
   * Imports `svg` into the frame and saves: each matched shape becomes its home's shape (replacing the
   * one it had), the other shapes stay. With `ifMatch` (the shapes' ETag the report was shown with),
   * only while nobody saved since (412). Answers the report and the frame as saved.
   */
  async save(
    organizationId: string,
    navigatorId: string,
    frameId: string,
    svg: string,
    ifMatch?: string,
  ): Promise<{ report: ImportReport; frame: NavigatorImage }> {
    const report = await this.report(organizationId, navigatorId, frameId, svg);
    const { shapes } = await this.frames.shapes(organizationId, navigatorId, frameId);
    const { kept, added } = withImported(shapes, report);
    const items: ShapeInput[] = [
      ...kept.map(({ name, description, referenceType, referenceId, shape }) => ({
        ...(name === null ? {} : { name }),
        ...(description === null ? {} : { description }),
        referenceType: referenceType as ShapeInput['referenceType'],
        referenceId,
        shape,
      })),
      ...added,
    ];
    return { report, frame: await this.frames.replaceShapes(organizationId, navigatorId, frameId, items, ifMatch) };
  }
}
