import path from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { DiskBlobStore } from './disk.js';

export function createBlobStore(config: Readonly<Config>): BlobStore {
  if (config.storage.driver === 'disk') return new DiskBlobStore(path.join(config.dataDir, 'files'));
  throw new Error('STORAGE_DRIVER=s3 is not available in this build');
}
