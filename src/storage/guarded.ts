import type { Readable } from 'node:stream';
import { AppError, dependencyFull, dependencyUnavailable } from '../errors.js';
import type { BlobRange, BlobStat, BlobStore } from './blob-store.js';

/**
 * What a failed storage call means to a client: a missing object stays ENOENT (the caller's 404), a
 * limit or a client's own failure stays what it is (AppError), a full disk is 507, anything else (a
 * store that refuses, times out, or answers 5xx; the SDK's TimeoutError and AbortError) is a 503
 * naming file storage: never "the database", whose mapping would take any ECONNREFUSED for its own.
 */
export function storageFault(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const code = (err as { code?: unknown } | undefined)?.code;
  if (code === 'ENOENT') return err;
  if (code === 'ENOSPC' || code === 'EDQUOT' || (err as { name?: unknown } | undefined)?.name === 'EntityTooLarge') return dependencyFull('storage', err);
  return dependencyUnavailable('storage', err);
}

/**
 * Every call of a store within a deadline, its failures as storageFault says. The S3 store aborts its
 * own requests at the same deadline (freeing the socket); this bounds any store, a hung disk mount too.
 * Streams are bounded by the store's idle timeout instead, since a large file may take long.
 */
export function guardedBlobStore(store: BlobStore, timeoutMs: number): BlobStore {
  const within = async <T>(work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`storage did not answer within ${timeoutMs} ms`), { name: 'TimeoutError' })), timeoutMs);
    });
    work.catch(() => undefined);
    try {
      return await Promise.race([work, late]);
    } catch (err) {
      throw storageFault(err);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    driver: store.driver,
    async put(key: string, body: Readable, contentType: string): Promise<BlobStat> {
      try {
        return await store.put(key, body, contentType);
      } catch (err) {
        throw storageFault(err);
      }
    },
    get: (key: string, range?: BlobRange) => within(store.get(key, range)),
    stat: (key: string) => within(store.stat(key)),
    delete: (key: string) => within(store.delete(key)),
    check: () => within(store.check()),
    publicUrl: (key: string) => store.publicUrl(key),
    describe: () => store.describe(),
    readStamp: () => within(store.readStamp()),
    writeStamp: (text: string) => within(store.writeStamp(text)),
    list: () => store.list(),
    purgeTemporary: (olderThan: Date) => store.purgeTemporary(olderThan),
  };
}
