import type { Readable } from 'node:stream';

export interface BlobStat {
  size: number;
}

export interface BlobRange {
  start: number;
  /** Inclusive end offset. */
  end: number;
}

/**
 * Where asset bytes live. Keys are made by the service (never from a client's file name) and
 * are opaque, path-safe strings such as `org/<uuid>/<uuid>`.
 */
export interface BlobStore {
  readonly driver: 'disk' | 's3';
  /** Streams body into key; on any error nothing is left under key. Resolves with the stored size. */
  put(key: string, body: Readable, contentType: string): Promise<BlobStat>;
  /** Streams the object, or the inclusive byte range of it. Rejects with code ENOENT when missing. */
  get(key: string, range?: BlobRange): Promise<Readable>;
  stat(key: string): Promise<BlobStat | undefined>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Readiness: throws when the store cannot be written to. */
  check(): Promise<void>;
  /** A direct public URL for the object when the store serves it itself; undefined to serve through the service. */
  publicUrl(key: string): string | undefined;
  /** Every stored object with its last change (the stamp excepted). */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /** Where the objects are, for people: a directory, or s3://bucket at an endpoint (never credentials). */
  describe(): string;
  /** The ownership stamp's text (see storage/stamp.ts); undefined when there is none. */
  readStamp(): Promise<string | undefined>;
  /** Writes the stamp unless one exists; false when one was already there (read it again). */
  writeStamp(text: string): Promise<boolean>;
  /** Removes partial writes (temporary files) older than the given time, left by a process that died mid-upload. */
  purgeTemporary(olderThan: Date): Promise<number>;
}
