import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Caching } from '../../db/read-cache.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { DownloadsService } from './downloads/service.js';
import { GalleryService } from './gallery/service.js';
import { InvestmentService } from './investment/service.js';
import { MapService } from './map/service.js';
import { PublicDocumentCache } from './public-read.js';

/** The four add-on services and the cache of their public documents, one set per app. */
export function createAddonServices(deps: { db: Database; config: Readonly<Config>; storage: BlobStore }, caching: Caching) {
  return {
    investment: new InvestmentService(deps.db, deps.config, deps.storage),
    gallery: new GalleryService(deps.db, deps.config, deps.storage),
    map: new MapService(deps.db, deps.config, deps.storage),
    downloads: new DownloadsService(deps.db, deps.config, deps.storage),
    // PGlite: this process is the only writer (DATA_DIR lock), so local invalidation is complete.
    // PostgreSQL: trusted only while the LISTEN connection is up (see listener.ts).
    publicCache: new PublicDocumentCache(caching.store, deps.db.kind === 'pglite'),
  };
}
