import path from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { DiskBlobStore } from './disk.js';
import { S3BlobStore } from './s3.js';

export function createBlobStore(config: Readonly<Config>): BlobStore {
  if (config.storage.driver === 'disk') return new DiskBlobStore(path.join(config.dataDir, 'files'));
  const { driver: _driver, ...options } = config.storage;
  return new S3BlobStore(options);
}
