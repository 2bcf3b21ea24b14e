import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { AppError } from '../../errors.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { storageFault } from '../../storage/guarded.js';
import { SNIFF_BYTES, sniffMimeType } from './sniff.js';

export interface Ingested {
  mimeType: string;
  sizeBytes: number;
  sha256: string;
  /** The first bytes of the file (at most PROBE_BYTES): enough for an image's header. */
  head: Buffer;
}

/** Bytes of a file kept to read an image header (EXIF with its thumbnail fits in 64 KiB; the frame header follows). */
export const PROBE_BYTES = 256 * 1024;

export interface IngestOptions {
  filename: string | undefined;
  declaredType: string | undefined;
  maxBytes: number;
  /** The error thrown when the source grows past maxBytes (or says it was cut short by a limit). */
  tooLarge: () => Error;
  /** Whether the source was cut at a limit upstream (busboy's `truncated`). */
  wasTruncated?: () => boolean;
  /** The error thrown for a source without a single byte: nothing is stored for it. */
  empty: () => Error;
  /** The error a failing source becomes (a multipart body cut short is the client's 400, not a 500). */
  sourceFailed?: (err: Error) => Error;
}

/**
 * Reads the first bytes without consuming the stream: returns them and a stream that replays them
 * followed by the rest, so the type is known before the first byte is stored.
 */
async function peek(source: Readable, bytes: number): Promise<{ head: Buffer; body: Readable }> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    length += chunk.length;
  }
  async function* replay() {
    try {
      yield* chunks;
      while (!done) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      // A consumer that stops early (an error downstream) must not leave the source half-read.
      if (!done) await iterator.return?.();
    }
  }
  return { head: Buffer.concat(chunks).subarray(0, bytes), body: Readable.from(replay(), { objectMode: false }) };
}

/**
 * Streams a source into storage under key while measuring it: size and sha256 are computed on the
 * way, the limit is enforced before a byte past it is written, and on any failure nothing is kept.
 */
export async function ingest(storage: BlobStore, key: string, source: Readable, options: IngestOptions): Promise<Ingested> {
  const { head, body } = await peek(source, SNIFF_BYTES).catch((err: Error) => {
    throw err instanceof AppError ? err : (options.sourceFailed?.(err) ?? err);
  });
  // An empty file is a client mistake (a wrong path, a file not yet written), never content: refused
  // before anything is stored.
  if (head.length === 0) throw options.empty();
  const mimeType = await sniffMimeType(head, options.filename, options.declaredType);
  const hash = createHash('sha256');
  let size = 0;
  const headChunks: Buffer[] = [];
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (size < PROBE_BYTES) headChunks.push(chunk.subarray(0, PROBE_BYTES - size));
      size += chunk.length;
      if (size > options.maxBytes) return done(options.tooLarge());
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      // Checked before the store commits the object, so a cut-short file is never kept.
      done(options.wasTruncated?.() ? options.tooLarge() : null);
    },
  });
  let sourceError: Error | undefined;
  body.on('error', (err) => meter.destroy(err));
  source.on('error', (err) => {
    sourceError = err;
    meter.destroy(err);
  });
  try {
    await storage.put(key, body.pipe(meter), mimeType);
  } catch (err) {
    body.destroy();
    source.destroy();
    // put leaves nothing under key on failure; this delete is a precaution, not awaited: a store that
    // stopped answering would hold the answer for another deadline (the orphan sweep covers it).
    storage.delete(key).catch(() => undefined);
    // A client that went away or a limit is the request's own failure; anything else is the store
    // failing (S3 down or silent: 503; disk full: 507), never a 500.
    if (err instanceof AppError && !err.dependency) throw err;
    if (sourceError) throw options.sourceFailed?.(sourceError) ?? sourceError;
    throw storageFault(err);
  }
  return { mimeType, sizeBytes: size, sha256: hash.digest('hex'), head: Buffer.concat(headChunks) };
}
