import type { Readable } from 'node:stream';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { json } from '../../db/query.js';
import { AppError, badRequest, forbidden, notFound, unprocessable } from '../../errors.js';
import { unstorableText } from '../../http/validation.js';
import { isUuid, newId } from '../../ids.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { detachAssetFromAddons } from '../addons/asset-references.js';
import { detachAssetFromNavigators } from '../navigators/write.js';
import { emitEvent } from '../webhooks/events.js';
import { openRemoteFile } from './fetch-remote.js';
import type { ImageProcessor } from './images/processor.js';
import { isRasterImage, plannedVariants, readImageFacts } from './images/render.js';
import { parseVariantKey, variantKey } from './images/variant-keys.js';
import { sizeKnownAtUpload } from './images/whole.js';
import { type IngestOptions, type Ingested, ingest } from './ingest.js';
import { storageIntents } from './intents.js';
import { type AssetRow, assetsRepository as repo } from './repository.js';
import { type Asset, type AssetWithUsage, MAX_REMOTE_BYTES, MAX_UPLOAD_BYTES, type StoredVariant } from './schemas.js';
import { assetSrc } from './src-url.js';

export interface UploadInput {
  file: Readable;
  filename: string | undefined;
  declaredType: string | undefined;
  name: string | undefined;
  wasTruncated: () => boolean;
  /** Runs after the bytes are stored and before the row is written; a throw keeps nothing. */
  beforeRecord?: () => Promise<void>;
}

const tooLargeUpload = () => new AppError('payloadTooLarge', `file is larger than the upload limit of ${MAX_UPLOAD_BYTES} bytes (20 MB)`);

/** A name for the asset: the one given, else the file name, trimmed to the name limit. */
function assetName(given: string | undefined, filename: string | undefined): string {
  const name = (given ?? filename ?? '').trim() || 'file';
  return name.slice(0, 200);
}

/** Storage keys are made here from ids only: no client text ever reaches a path or an object key. */
const storageKey = (organizationId: string, id: string) => `${organizationId}/${id}`;

/**
 * The image columns of a new asset. The header is read from the first bytes the upload kept, so the
 * answer already has the size and the variant URLs (made later, or by their first request); an image
 * whose header is not in those bytes gets them from its job. Anything not a raster image: none.
 */
async function imageColumns(stored: Ingested) {
  if (!isRasterImage(stored.mimeType)) return {};
  // Only what the job will make true: a size (and so variants) for a format decoded even when cut
  // short, or for a file whose container says it is whole; otherwise null until the job knows.
  const facts = sizeKnownAtUpload(stored.mimeType, stored.head, stored.sizeBytes) ? await readImageFacts(stored.head) : undefined;
  return {
    imageState: 'pending',
    ...(facts && { width: facts.width, height: facts.height, hasLocation: facts.hasLocation, variants: json(plannedVariants(facts.width, facts.height)) }),
  };
}

/** A file the /files route serves: an asset's original, or one of its variants. */
export interface ServedFile {
  row: AssetRow;
  variant: StoredVariant | undefined;
}

export class AssetsService {
  constructor(
    private readonly db: Database,
    private readonly storage: BlobStore,
    private readonly config: Readonly<Config>,
    readonly images: ImageProcessor,
  ) {}

  /**
   * The API shape of a stored asset: its storage key becomes the public `src` URL. Variant URLs are
   * always the service's (a bucket could not make a variant that is not there yet).
   */
  toAsset({ organizationId: _, storageKey: key, imageState: __, variants, ...row }: AssetRow): Asset {
    return {
      ...row,
      src: assetSrc(this.config, this.storage, key),
      variants: variants.map((v) => ({ ...v, mimeType: 'image/webp' as const, src: `${this.config.publicUrl}/files/${variantKey(key, v.width)}` })),
    };
  }

  /**
   * Records the intent, stores the bytes, then the row (which settles the intent in the same
   * statement); a failure removes the stored object and settles the intent, so nothing is orphaned.
   * A process that dies between the bytes and the row leaves the intent: the start-up sweep removes
   * the object it names.
   */
  private async store(
    organizationId: string,
    source: Readable,
    meta: IngestOptions & {
      name: string;
      /** Runs after the bytes are stored and before the row is written; a throw keeps nothing. */
      beforeRecord?: (() => Promise<void>) | undefined;
    },
  ): Promise<Asset> {
    const id = newId();
    const key = storageKey(organizationId, id);
    const intent = await storageIntents.record(this.db, key);
    let stored: Ingested;
    try {
      stored = await ingest(this.storage, key, source, meta);
    } catch (err) {
      // ingest removed whatever it had stored.
      await storageIntents.settle(this.db, intent).catch(() => undefined);
      throw err;
    }
    try {
      await meta.beforeRecord?.();
      const { head: _, ...file } = stored;
      const row = await repo.insert(this.db, { id, organizationId, name: meta.name, storageKey: key, ...file, ...(await imageColumns(stored)) }, intent);
      return this.toAsset(row);
    } catch (err) {
      // The intent stays when the object cannot be removed now: the sweep removes it later.
      const removed = await this.storage.delete(key).then(
        () => true,
        () => false,
      );
      if (removed) await storageIntents.settle(this.db, intent).catch(() => undefined);
      throw err;
    }
  }

  async upload(organizationId: string, input: UploadInput): Promise<Asset> {
    return this.store(organizationId, input.file, {
      name: assetName(input.name, input.filename),
      filename: input.filename,
      declaredType: input.declaredType,
      maxBytes: MAX_UPLOAD_BYTES,
      tooLarge: tooLargeUpload,
      wasTruncated: input.wasTruncated,
      empty: () => unprocessable('Validation failed: file is empty (0 bytes)'),
      sourceFailed: (err) => badRequest(`The multipart body cannot be read: the file part ended early (${err.message || 'no closing boundary'})`),
      beforeRecord: input.beforeRecord,
    });
  }

  async register(organizationId: string, input: { src: string; name?: string | undefined }): Promise<Asset> {
    const remote = await openRemoteFile(input.src, {
      allowPrivate: this.config.allowPrivateUrls,
      maxBytes: MAX_REMOTE_BYTES,
      maxRedirects: 5,
      connectTimeoutMs: 5_000,
      totalTimeoutMs: 60_000,
    });
    try {
      // The default name comes from the URL's last path segment, client text like any other.
      const filenameProblem = input.name === undefined && remote.filename ? unstorableText(remote.filename) : undefined;
      if (filenameProblem) throw unprocessable(`Validation failed: the file name in src ${filenameProblem}; send name`);
      return await this.store(organizationId, remote.body, {
        name: assetName(input.name, remote.filename),
        filename: remote.filename,
        declaredType: remote.declaredType,
        maxBytes: MAX_REMOTE_BYTES,
        tooLarge: () => unprocessable(`src is larger than the ${MAX_REMOTE_BYTES / 1024 / 1024} MB limit`),
        empty: () => unprocessable('src is an empty file (0 bytes)'),
      });
    } catch (err) {
      if (err instanceof AppError) throw err;
      const message = (err as Error).name === 'AbortError' ? 'the download took too long' : (err as Error).message || 'the connection failed';
      throw badRequest(`Could not download src: ${message}`);
    } finally {
      remote.abort();
    }
  }

  /** After the asset's create committed (the job must see the row): its variants are made in the background. */
  created(organizationId: string, asset: Asset): void {
    if (isRasterImage(asset.mimeType)) this.images.enqueue(organizationId, asset.id);
  }

  /** A page of assets (newest first) and the window it covers (X-Total-Count and Link). */
  async list(
    organizationId: string,
    query: { mimeType?: string; unused?: boolean; offset?: number; limit?: number },
    publishable = false,
  ): Promise<{ total: number; offset: number; limit: number; items: Asset[] }> {
    // A public page shows only used assets: asking for the unused ones is asking for the drafts.
    if (publishable && query.unused === true) throw forbidden('unused=true is not for a publishable key: it lists only what a public page shows');
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 100;
    const { total, rows } = await repo.list(this.db, organizationId, {
      mimePrefix: query.mimeType,
      unused: query.unused,
      publicOnly: publishable,
      offset,
      limit,
    });
    return { total, offset, limit, items: rows.map((row) => this.toAsset(row)) };
  }

  /** `publishable`: only an asset a public page shows (404 otherwise), with only its public uses. */
  async get(organizationId: string, id: string, publishable = false): Promise<AssetWithUsage> {
    const row = isUuid(id) ? await repo.get(this.db, organizationId, id, publishable) : undefined;
    if (!row) throw notFound('Asset', id);
    return { ...this.toAsset(row), usedBy: await repo.usage(this.db, organizationId, row.id, publishable) };
  }

  /** The row (and the add-on children and navigator frames naming it) go in one transaction; the file only after it commits. */
  async delete(organizationId: string, id: string): Promise<void> {
    if (!isUuid(id)) throw notFound('Asset', id);
    const row = await this.db.transaction(async (tx) => {
      // Add-on children first: that takes the estate locks before the asset row's, the order every
      // add-on write uses, so a concurrent attach cannot deadlock with this delete.
      await detachAssetFromAddons(tx, organizationId, id);
      // Then the navigators' locks, as every navigator write takes its navigator first.
      await detachAssetFromNavigators(tx, organizationId, id);
      const deleted = await repo.delete(tx, organizationId, id);
      if (!deleted) throw notFound('Asset', id);
      await emitEvent(tx, organizationId, 'asset.deleted', this.toAsset(deleted));
      // Committed with the row's removal: a process that dies before the bytes go leaves the intent.
      const intent = await storageIntents.recordIn(tx, deleted.storageKey);
      return { deleted, intent };
    });
    // The row is gone, so the bytes are unreachable (files are served only for an existing row); a
    // store that fails here keeps the intent (the start-up sweep retries) rather than failing a
    // committed delete.
    const removed = await this.storage.delete(row.deleted.storageKey).then(
      () => true,
      () => false,
    );
    const variantsRemoved = await this.images.deleteVariants(row.deleted.storageKey);
    if (removed && variantsRemoved) await storageIntents.settle(this.db, row.intent).catch(() => undefined);
  }

  /**
   * For file serving: the asset behind a /files/<organization>/<asset> path, or a variant behind
   * /files/<organization>/<asset>-w<width>; undefined when there is none. A variant that is planned
   * but not made yet is made first, so its URL never answers 404 while the image exists.
   */
  async findFile(organizationId: string, fileId: string): Promise<ServedFile | undefined> {
    const parsed = parseVariantKey(fileId);
    const id = parsed?.base ?? fileId;
    if (!isUuid(organizationId) || !isUuid(id)) return undefined;
    let row = await repo.get(this.db, organizationId, id);
    if (!row || row.storageKey !== storageKey(organizationId, id)) return undefined;
    if (!parsed) return { row, variant: undefined };
    const wanted = (r: AssetRow) => r.variants.find((v) => v.width === parsed.width);
    if (!wanted(row)) return undefined;
    if (row.imageState === 'pending') {
      await this.images.ensure(organizationId, id);
      row = await repo.get(this.db, organizationId, id);
    }
    const variant = row && wanted(row);
    return row && variant?.sizeBytes != null ? { row, variant } : undefined;
  }
}
