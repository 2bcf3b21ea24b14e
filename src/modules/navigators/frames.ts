import type { Database, Queryable } from '../../db/client.js';
import { q } from '../../db/query.js';
import { conflict, notFound } from '../../errors.js';
import { etagOf, requireIfMatch } from '../../http/etag.js';
import { isUuid, newId } from '../../ids.js';
import type { AssetUrlPrefixes } from '../addons/assets.js';
import { optionsOf } from './document.js';
import { type FrameRow, navigatorsRepository as repo } from './repository.js';
import type { NavigatorImage, PoiInput, ShapeInput } from './schemas.js';
import { type PixelSize, aspectProblem, sizedTo } from './sizes.js';
import { failWith, preparePois, prepareShapes, referenceProblems } from './validate.js';
import { navigatorWrite } from './write.js';

export interface CreateFrameInput {
  assetId: string;
  angle: number;
  name?: string | undefined;
  isMarketingStop?: boolean | undefined;
  highlightLabel?: string | null | undefined;
}

export type UpdateFrameInput = Partial<CreateFrameInput>;

/** `90°` for 90, `22.5°` for 22.5: a frame's name when none is given. */
const angleName = (angle: number) => `${angle}°`;

/** An image asset of the organization whose size is known (a viewer needs it to lay shapes over it). */
async function requireFrameAsset(db: Queryable, organizationId: string, assetId: string): Promise<PixelSize & { id: string }> {
  const asset = isUuid(assetId)
    ? await q(db)
        .selectFrom('assets')
        .select(['id', 'mimeType', 'width', 'height', 'imageState'])
        .where('organizationId', '=', organizationId)
        .where('id', '=', assetId)
        .executeTakeFirst()
    : undefined;
  if (!asset) throw notFound('Asset', assetId);
  if (asset.imageState === 'pending' && asset.width === null) {
    throw conflict(`assetId: the size of image ${asset.id} is still being read (it was just uploaded); retry in a moment`);
  }
  if (!asset.mimeType.toLowerCase().startsWith('image/') || asset.width === null || asset.height === null) {
    failWith([`assetId must be an image asset with known width and height (asset ${asset.id} is ${asset.mimeType})`]);
  }
  return { id: asset.id, width: asset.width, height: asset.height };
}

/** A frame's shapes as the API shows them, and their ETag (what If-Match of the shapes PUT names). */
export interface FrameShapes {
  shapes: NavigatorImage['shapes'];
  etag: string;
}

/** The ETag of a frame's shapes: the canonical JSON of the list (ids included: every PUT makes new ones). */
export const shapesEtag = (shapes: NavigatorImage['shapes']) => etagOf(shapes);

/** Frames ("images" in the API) of a navigator, and their shapes and POIs. */
export class NavigatorFrames {
  constructor(
    private readonly db: Database,
    private readonly prefixes: AssetUrlPrefixes,
  ) {}

  private async requireFrame(tx: Queryable, organizationId: string, navigatorId: string, frameId: string): Promise<FrameRow> {
    const frame = isUuid(frameId) ? await repo.getFrame(tx, organizationId, navigatorId, frameId) : undefined;
    if (!frame) throw notFound('Navigator image', frameId);
    return frame;
  }

  private async requireFreeAngle(tx: Queryable, organizationId: string, navigatorId: string, angle: number, frameId?: string): Promise<void> {
    const taken = await repo.frameAt(tx, organizationId, navigatorId, angle);
    if (taken && taken.id !== frameId) throw conflict(`The navigator already has a frame at angle ${angle} (${taken.id})`);
  }

  create(organizationId: string, navigatorId: string, input: CreateFrameInput): Promise<NavigatorImage> {
    return navigatorWrite(this.db, organizationId, navigatorId, async (tx, navigator) => {
      const asset = await requireFrameAsset(tx, organizationId, input.assetId);
      await this.requireFreeAngle(tx, organizationId, navigator.id, input.angle);
      const options = optionsOf(navigator);
      // The first frame of a navigator nobody sized sets its sizes: shapes are drawn in its pixels.
      if (!navigator.sizesSet && !(await repo.hasFrames(tx, organizationId, navigator.id))) {
        await repo.update(tx, organizationId, navigator.id, { options: sizedTo(options, asset), sizesSet: true });
      } else {
        const problem = aspectProblem('assetId', asset, options);
        if (problem) failWith([problem]);
      }
      const id = newId();
      await repo.insertFrame(tx, {
        id,
        organizationId,
        navigatorId: navigator.id,
        assetId: asset.id,
        angle: input.angle,
        name: input.name?.trim() || angleName(input.angle),
        isMarketingStop: input.isMarketingStop ?? false,
        highlightLabel: input.highlightLabel ?? null,
      });
      return repo.frame(tx, organizationId, id, this.prefixes);
    });
  }

  update(organizationId: string, navigatorId: string, frameId: string, input: UpdateFrameInput): Promise<NavigatorImage> {
    return navigatorWrite(this.db, organizationId, navigatorId, async (tx, navigator) => {
      const frame = await this.requireFrame(tx, organizationId, navigator.id, frameId);
      const fields: Parameters<typeof repo.updateFrame>[3] = {};
      if (input.assetId !== undefined) {
        const asset = await requireFrameAsset(tx, organizationId, input.assetId);
        if (asset.id !== frame.assetId) {
          const problem = aspectProblem('assetId', asset, optionsOf(navigator));
          if (problem) failWith([problem]);
        }
        fields.assetId = asset.id;
      }
      if (input.angle !== undefined) {
        await this.requireFreeAngle(tx, organizationId, navigator.id, input.angle, frame.id);
        fields.angle = input.angle;
      }
      if (input.name !== undefined) fields.name = input.name.trim() || angleName(input.angle ?? frame.angle);
      if (input.isMarketingStop !== undefined) fields.isMarketingStop = input.isMarketingStop;
      if (input.highlightLabel !== undefined) fields.highlightLabel = input.highlightLabel;
      await repo.updateFrame(tx, organizationId, frame.id, fields);
      return repo.frame(tx, organizationId, frame.id, this.prefixes);
    });
  }

  async delete(organizationId: string, navigatorId: string, frameId: string): Promise<void> {
    await navigatorWrite(this.db, organizationId, navigatorId, async (tx, navigator) => {
      const frame = await this.requireFrame(tx, organizationId, navigator.id, frameId);
      await repo.deleteFrame(tx, organizationId, frame.id);
    });
  }

  /** A frame's shapes as stored now, with their ETag (the shape editor's reload, and what a conflict shows). */
  async shapes(organizationId: string, navigatorId: string, frameId: string): Promise<FrameShapes> {
    if (!isUuid(navigatorId)) throw notFound('Navigator', navigatorId);
    const navigator = await repo.get(this.db, organizationId, navigatorId);
    if (!navigator) throw notFound('Navigator', navigatorId);
    const frame = await this.requireFrame(this.db, organizationId, navigator.id, frameId);
    const shapes = await repo.frameShapes(this.db, organizationId, frame.id);
    return { shapes, etag: shapesEtag(shapes) };
  }

  /**
   * Replaces a frame's shapes. Every path is parsed and normalised against the navigator's overlay,
   * every reference must be an apartment or building of the navigator's estate; any bad item is a
   * 422 naming `[i].field` and nothing is stored. With `ifMatch`, only while the frame's shapes are
   * still those that ETag names (412 otherwise: someone else saved since).
   */
  replaceShapes(organizationId: string, navigatorId: string, frameId: string, items: ShapeInput[], ifMatch?: string): Promise<NavigatorImage> {
    return navigatorWrite(this.db, organizationId, navigatorId, async (tx, navigator) => {
      const frame = await this.requireFrame(tx, organizationId, navigator.id, frameId);
      await requireIfMatch(ifMatch, () => repo.frameShapes(tx, organizationId, frame.id));
      const { overlayWidth, overlayHeight } = optionsOf(navigator);
      const { records, problems } = prepareShapes(items, overlayWidth, overlayHeight);
      const idsOf = (type: string) => [...new Set(items.filter((i) => i.referenceType === type && isUuid(i.referenceId)).map((i) => i.referenceId))];
      const apartments = await repo.ofEstate(tx, 'apartments', organizationId, navigator.estateId, idsOf('apartment'));
      const buildings = await repo.ofEstate(tx, 'buildings', organizationId, navigator.estateId, idsOf('building'));
      problems.push(...referenceProblems(items, apartments, buildings));
      if (problems.length > 0) failWith(problems.sort(byItem));
      await repo.replaceShapes(tx, organizationId, frame.id, records);
      return repo.frame(tx, organizationId, frame.id, this.prefixes);
    });
  }

  /** Replaces a frame's POIs: inside the overlay, panoramas of the organization; all or nothing. */
  replacePois(organizationId: string, navigatorId: string, frameId: string, items: PoiInput[]): Promise<NavigatorImage> {
    return navigatorWrite(this.db, organizationId, navigatorId, async (tx, navigator) => {
      const frame = await this.requireFrame(tx, organizationId, navigator.id, frameId);
      const { overlayWidth, overlayHeight } = optionsOf(navigator);
      const wanted = items.flatMap((i) => [i.data.panoramaId, i.data.startingPanoramaId]).filter((id): id is string => isUuid(id));
      const panoramas = await repo.panoramasOf(tx, organizationId, [...new Set(wanted)]);
      const { records, problems } = preparePois(items, overlayWidth, overlayHeight, panoramas);
      if (problems.length > 0) failWith(problems);
      await repo.replacePois(tx, organizationId, frame.id, records);
      return repo.frame(tx, organizationId, frame.id, this.prefixes);
    });
  }
}

/** Problems in item order (`[2].shape` before `[10].referenceId`). */
const byItem = (a: string, b: string) => Number(a.slice(1, a.indexOf(']'))) - Number(b.slice(1, b.indexOf(']')));
