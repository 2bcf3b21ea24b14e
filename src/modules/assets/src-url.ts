import type { Config } from '../../config.js';
import type { BlobStore } from '../../storage/blob-store.js';

/**
 * URL of an asset's file: the store's own public URL when it serves objects (S3_PUBLIC_URL), else
 * the service's /files/ route. Both forms are prefix + key, so add-on SQL can build `src` with
 * assetSrc(config, storage, '') as the prefix; every asset representation uses this one rule.
 */
export function assetSrc(config: Pick<Config, 'publicUrl'>, storage: Pick<BlobStore, 'publicUrl'>, storageKey: string): string {
  return storage.publicUrl(storageKey) ?? `${config.publicUrl}/files/${storageKey}`;
}
