import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import { type Caching, ReadCache, followingWrites } from '../../db/read-cache.js';
import { conflict, notFound, orNothing } from '../../errors.js';
import { CompressibleBody } from '../../http/compression.js';
import { etagOf, requireIfMatch } from '../../http/etag.js';
import { isUuid, newId } from '../../ids.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { AssetUrlPrefixes } from '../addons/assets.js';
import { assetSrc } from '../assets/src-url.js';
import { requireEstate } from '../estates/service.js';
import { emitEvent } from '../webhooks/events.js';
import { assemble, optionsOf } from './document.js';
import { NavigatorFrames } from './frames.js';
import { type NavigatorRow, defaultNavigatorOptions, navigatorsRepository as repo } from './repository.js';
import type { Navigator, OptionsInput } from './schemas.js';
import { SIZE_KEYS, overlayProblem } from './sizes.js';
import { NavigatorSvgImport } from './svg-import.js';
import { failWith, mergeOptions, normaliseTheme, requireOverlayHolds } from './validate.js';
import { navigatorEventData, navigatorWrite } from './write.js';

/** NOTIFY channel of migrations/0014: any change to navigators, frames, shapes, POIs or assets. */
export const NAVIGATOR_CHANNEL = 'navigator_documents_changed';

/** How deep navigators nest (estate → building → …). */
const MAX_DEPTH = 5;

/** A read answer kept by the read cache: the document, its JSON bytes (and their encodings, made once) and its strong ETag. */
export interface ServedDocument<T> {
  value: T;
  body: CompressibleBody;
  etag: string;
  estateId: string;
}

export interface NavigatorPatch {
  seoTitle?: string | null | undefined;
  seoDescription?: string | null | undefined;
  seoOgImage?: string | null | undefined;
  isPreview?: boolean | undefined;
  options?: OptionsInput | undefined;
}

export interface CreateNavigatorInput {
  estateId: string;
  parentId?: string | undefined;
  referenceType?: 'building' | undefined;
  referenceId?: string | undefined;
  name: string;
}

const served = <T>(value: T, estateId: string): ServedDocument<T> => ({
  value,
  body: new CompressibleBody(Buffer.from(JSON.stringify(value))),
  etag: etagOf(value),
  estateId,
});

export class NavigatorsService {
  /**
   * Navigator documents (one navigator with its nested ones, an estate's list) with their bytes and
   * ETag, reused while nothing they contain can have changed (src/db/read-cache.ts; channel of
   * migrations/0014): what the API and the public page read.
   */
  readonly documents: ReadCache<ServedDocument<Navigator> | ServedDocument<Navigator[]>>;
  readonly frames: NavigatorFrames;
  /** The SVG import on the server (the shape editor's no-script path). */
  readonly svgImport: NavigatorSvgImport;
  private readonly prefixes: AssetUrlPrefixes;

  constructor(
    private readonly db: Database,
    config: Pick<Config, 'publicUrl'>,
    storage: Pick<BlobStore, 'publicUrl'>,
    caching: Caching,
  ) {
    this.documents = new ReadCache({
      ...followingWrites(db, caching, false),
      channels: [NAVIGATOR_CHANNEL],
      // The bytes, their encodings and the parsed document (about twice the JSON).
      weigh: (doc) => doc.body.weight + doc.body.identity.length * 2,
    });
    this.prefixes = { original: assetSrc(config, storage, ''), files: `${config.publicUrl}/files/` };
    this.frames = new NavigatorFrames(db, this.prefixes);
    this.svgImport = new NavigatorSvgImport(db, this.frames);
  }

  /** The navigator with its nested ones, as stored now (inside a write's transaction). */
  async build(db: Queryable, organizationId: string, navigator: Pick<NavigatorRow, 'id' | 'estateId'>): Promise<Navigator> {
    const { byId } = assemble(await repo.estateDocuments(db, organizationId, navigator.estateId, this.prefixes));
    return byId.get(navigator.id)!;
  }

  /** GET of one navigator: frames by angle with shapes and POIs, nested navigators; cached. */
  async get(organizationId: string, id: string): Promise<ServedDocument<Navigator>> {
    const found = isUuid(id)
      ? await this.documents.read(
          `n:${organizationId}:${id.toLowerCase()}`,
          async () => {
            const row = await repo.get(this.db, organizationId, id);
            return row && served(await this.build(this.db, organizationId, row), row.estateId);
          },
          { scope: organizationId },
        )
      : undefined;
    if (!found) throw notFound('Navigator', id);
    return found as ServedDocument<Navigator>;
  }

  /** An estate's navigators: its first one(s), each with its nested ones; cached. */
  async list(organizationId: string, estateId: string): Promise<ServedDocument<Navigator[]>> {
    const found = isUuid(estateId)
      ? await this.documents.read(
          `e:${organizationId}:${estateId.toLowerCase()}`,
          async () => {
            const estate = await requireEstate(this.db, organizationId, estateId).catch(orNothing);
            if (!estate) return undefined;
            return served(assemble(await repo.estateDocuments(this.db, organizationId, estate.id, this.prefixes)).roots, estate.id);
          },
          { scope: organizationId },
        )
      : undefined;
    if (!found) throw notFound('Estate', estateId);
    return found as ServedDocument<Navigator[]>;
  }

  /**
   * What the public page shows: the estate's navigator `navigatorId`, or its first one, read as a
   * publishable key reads it (nothing in a navigator is masked), from the same cache as GET. 404 when
   * the estate has none or the navigator is not the estate's.
   */
  async forPage(organizationId: string, estateId: string, navigatorId?: string | null): Promise<ServedDocument<Navigator>> {
    if (navigatorId) {
      const doc = await this.get(organizationId, navigatorId);
      if (doc.estateId !== estateId.toLowerCase()) throw notFound('Navigator', navigatorId);
      return doc;
    }
    const roots = await this.list(organizationId, estateId);
    const first = roots.value[0];
    if (!first) throw notFound('Navigator', `of estate ${estateId}`);
    return this.get(organizationId, first.id);
  }

  /** PATCH: SEO fields, isPreview, options merged key by key; with `ifMatch`, only while that ETag is current. */
  async update(organizationId: string, id: string, input: NavigatorPatch, ifMatch?: string): Promise<Navigator> {
    // Colours are checked before any lock is taken: a bad theme costs no transaction.
    const options = input.options?.customTheme ? { ...input.options, customTheme: normaliseTheme(input.options.customTheme) } : input.options;
    return navigatorWrite(this.db, organizationId, id, async (tx, row) => {
      await requireIfMatch(ifMatch, () => this.build(tx, organizationId, row));
      const fields: Parameters<typeof repo.update>[3] = {};
      if (input.seoTitle !== undefined) fields.seoTitle = input.seoTitle;
      if (input.seoDescription !== undefined) fields.seoDescription = input.seoDescription;
      if (input.seoOgImage !== undefined) fields.seoOgImage = input.seoOgImage;
      if (input.isPreview !== undefined) fields.isPreview = input.isPreview;
      if (options) {
        const current = optionsOf(row);
        const merged = mergeOptions(current, options);
        if (merged.overlayWidth !== current.overlayWidth || merged.overlayHeight !== current.overlayHeight) {
          const problem = overlayProblem(merged, await repo.frameSizes(tx, organizationId, row.id));
          if (problem) failWith([problem]);
        }
        if (merged.overlayWidth < current.overlayWidth || merged.overlayHeight < current.overlayHeight) {
          requireOverlayHolds(merged, await repo.extent(tx, organizationId, row.id));
        }
        fields.options = merged;
        // Sizes someone chose are kept: the first frame no longer sets them.
        if (SIZE_KEYS.some((key) => options[key] !== undefined)) fields.sizesSet = true;
      }
      await repo.update(tx, organizationId, row.id, fields);
      return this.build(tx, organizationId, row);
    });
  }

  /**
   * A new navigator. With parentId: nested in that navigator of the estate, for one of its buildings
   * (one per building and parent). Without: the estate's first navigator, for an estate made without
   * quick setup (409 when it has one).
   */
  async create(organizationId: string, input: CreateNavigatorInput): Promise<Navigator> {
    const nested = input.parentId !== undefined;
    const problems: string[] = [];
    if (nested && input.referenceType === undefined) problems.push('referenceType is required with parentId');
    if (nested && input.referenceId === undefined) problems.push('referenceId is required with parentId');
    if (!nested && input.referenceId !== undefined) problems.push('referenceId is only for a nested navigator (send parentId)');
    if (!nested && input.referenceType !== undefined) problems.push('referenceType is only for a nested navigator (send parentId)');
    if (problems.length > 0) failWith(problems);
    const name = input.name.trim();
    return this.db.transaction(async (tx) => {
      const estate = await requireEstate(tx, organizationId, input.estateId, true);
      const id = newId();
      let parentId: string | null = null;
      let referenceId = estate.id;
      if (nested) {
        const parent = isUuid(input.parentId) ? await repo.lock(tx, organizationId, input.parentId) : undefined;
        if (!parent) throw notFound('Navigator', input.parentId!);
        if (parent.estateId !== estate.id) failWith([`parentId must be a navigator of estate ${estate.id}`]);
        if ((await this.depth(tx, organizationId, parent)) >= MAX_DEPTH) failWith([`parentId: navigators nest at most ${MAX_DEPTH} levels deep`]);
        const building = isUuid(input.referenceId) ? await repo.ofEstate(tx, 'buildings', organizationId, estate.id, [input.referenceId!]) : new Set();
        if (building.size === 0) failWith([`referenceId must be the id of a building of estate ${estate.id}`]);
        referenceId = input.referenceId!.toLowerCase();
        if (await repo.hasNested(tx, organizationId, parent.id, referenceId))
          throw conflict('The parent navigator already has a nested navigator for this building');
        parentId = parent.id;
      } else if (await repo.root(tx, organizationId, estate.id)) {
        throw conflict(`Estate ${estate.id} already has its navigator; nest another one in it with parentId`);
      }
      const row = await repo.insert(tx, {
        id,
        organizationId,
        estateId: estate.id,
        parentId,
        referenceId,
        referenceType: nested ? 'building' : 'estate',
        type: 'image',
        seoTitle: name,
        options: defaultNavigatorOptions(name),
      });
      if (!nested && estate.navigatorId === null) await repo.pointEstateAt(tx, organizationId, estate.id, row.id);
      await emitEvent(tx, organizationId, 'navigator.updated', navigatorEventData(estate.id, row.id));
      return this.build(tx, organizationId, row);
    });
  }

  /** Deletes a nested navigator with its frames and its own nested ones; the estate's first is 409. */
  async delete(organizationId: string, id: string): Promise<void> {
    await navigatorWrite(this.db, organizationId, id, async (tx, row) => {
      if (row.parentId === null) throw conflict('The estate’s first navigator cannot be deleted; delete its frames or nested navigators instead');
      await repo.delete(tx, organizationId, row.id);
    });
  }

  /** How many navigators are above `row` (0 for the estate's first). */
  private async depth(tx: Queryable, organizationId: string, row: NavigatorRow): Promise<number> {
    let depth = 0;
    let current: NavigatorRow | undefined = row;
    while (current?.parentId && depth <= MAX_DEPTH) {
      current = await repo.get(tx, organizationId, current.parentId);
      depth++;
    }
    return depth;
  }
}
