import { type Readable, Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BlobRange, BlobStat, BlobStore } from './blob-store.js';

export interface S3StoreOptions {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  /** When set, asset `src` points at the bucket (public-read objects); otherwise at the service. */
  publicBaseUrl: string | undefined;
  /**
   * Key prefix of every object this service writes, reads, lists and stamps ('' or `a/b/`, ending in a
   * slash; S3_PREFIX): one bucket can hold several databases' files, each under its own prefix.
   */
  prefix?: string | undefined;
  /** Overall deadline of a call that is not a stream (HEAD, DELETE, LIST, a GET until its headers); 3 s. */
  timeoutMs?: number | undefined;
  /** A stream (upload part, download body) that moves no byte this long is aborted; 4 s. */
  idleTimeoutMs?: number | undefined;
}

/** The ownership stamp (see storage/stamp.ts): an object at the prefix's root (the bucket's without one), never an asset key. */
const STAMP_KEY = '.pps-storage.json';

/** The endpoint without credentials or path: scheme, host and port. */
const endpointHost = (endpoint: string) => {
  try {
    const u = new URL(endpoint);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'the configured endpoint';
  }
};

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/** Any S3-compatible store through the official SDK; uploads are streamed in parts by lib-storage. */
export class S3BlobStore implements BlobStore {
  readonly driver = 's3' as const;
  private readonly client: S3Client;
  private readonly timeoutMs: number;
  private readonly prefix: string;
  constructor(private readonly options: S3StoreOptions) {
    this.timeoutMs = options.timeoutMs ?? 3_000;
    this.prefix = options.prefix ?? '';
    const idleMs = options.idleTimeoutMs ?? 4_000;
    this.client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
      // The SDK's default CRC trailers (aws-chunked bodies) are not understood by many S3-compatible
      // stores (older MinIO, s3rver, some gateways); checksums only where the API requires them.
      // A store that stops answering must fail the request, not hold it until the client gives up:
      // socketTimeout is the socket's idle time (a stream that stalls), the abort signals below the
      // overall deadline of each call that is not a stream. One retry, not the default two: each
      // attempt at a silent store costs the idle timeout (three made an upload wait past a minute).
      requestHandler: { connectionTimeout: Math.min(this.timeoutMs, 5_000), socketTimeout: idleMs },
      maxAttempts: 2,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable, contentType: string): Promise<BlobStat> {
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    body.on('error', (err) => counter.destroy(err));
    body.pipe(counter);
    // Two 5 MB parts in flight bound the memory an upload holds, whatever the file size.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: this.prefix + key, Body: counter, ContentType: contentType },
      partSize: 5 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      // A PutObject that failed stored nothing (S3 writes are atomic) and lib-storage aborts a multipart
      // upload; the delete is a precaution, not awaited: a store that stopped answering would hold the
      // request's answer for another deadline. Whatever a silent store still commits later has no asset
      // row, and the orphan sweep at the next start removes it.
      upload.abort().catch(() => undefined);
      this.delete(key).catch(() => undefined);
      throw err;
    }
    return { size };
  }

  async get(key: string, range?: BlobRange): Promise<Readable> {
    try {
      const out = await this.within((c, o) =>
        c.send(
          new GetObjectCommand({
            Bucket: this.options.bucket,
            Key: this.prefix + key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
          o,
        ),
      );
      return out.Body as Readable;
    } catch (err) {
      if (isMissing(err)) throw Object.assign(new Error(`No object ${key}`), { code: 'ENOENT' });
      throw err;
    }
  }

  async stat(key: string): Promise<BlobStat | undefined> {
    try {
      const out = await this.within((c, o) => c.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.prefix + key }), o));
      return { size: out.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.within((c, o) => c.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.prefix + key }), o));
  }

  async check(): Promise<void> {
    await this.within((c, o) => c.send(new HeadBucketCommand({ Bucket: this.options.bucket }), o));
  }

  /**
   * One command within the overall deadline. The signal is only armed until the answer's headers: a
   * GET's body streams after that under the idle timeout, however long the file takes.
   */
  private async within<T>(run: (client: S3Client, options: { abortSignal: AbortSignal }) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(Object.assign(new Error(`S3 did not answer within ${this.timeoutMs} ms`), { name: 'TimeoutError' })),
      this.timeoutMs,
    );
    try {
      return await run(this.client, { abortSignal: abort.signal });
    } finally {
      clearTimeout(timer);
    }
  }

  publicUrl(key: string): string | undefined {
    return this.options.publicBaseUrl ? `${this.options.publicBaseUrl}/${this.prefix}${key}` : undefined;
  }

  describe(): string {
    return `s3://${this.options.bucket}${this.prefix ? `/${this.prefix}` : ''}${this.options.endpoint ? ` at ${endpointHost(this.options.endpoint)}` : ''}`;
  }

  async readStamp(): Promise<string | undefined> {
    try {
      return await this.within(async (c, o) => {
        const out = await c.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.prefix + STAMP_KEY }), o);
        return await out.Body?.transformToString('utf8');
      });
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  /**
   * Create-only: not when a stamp is there, and a conditional create (If-None-Match: *) where the
   * store supports it (AWS S3, MinIO) for two writers at once; a store that ignores the header may let
   * the second overwrite, and the caller's read-back then sees whose stamp won.
   */
  async writeStamp(text: string): Promise<boolean> {
    if ((await this.readStamp()) !== undefined) return false;
    try {
      await this.within((c, o) =>
        c.send(
          new PutObjectCommand({ Bucket: this.options.bucket, Key: this.prefix + STAMP_KEY, Body: text, ContentType: 'application/json', IfNoneMatch: '*' }),
          o,
        ),
      );
      return true;
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 412 || status === 409) return false;
      throw err;
    }
  }

  async *list(): AsyncIterable<{ key: string; modifiedAt: Date }> {
    let token: string | undefined;
    do {
      const page = await this.within((c, o) =>
        c.send(new ListObjectsV2Command({ Bucket: this.options.bucket, ContinuationToken: token, ...(this.prefix ? { Prefix: this.prefix } : {}) }), o),
      );
      for (const o of page.Contents ?? []) {
        // Only this prefix's objects: another prefix's (another database's) are never listed, so never swept.
        const key = o.Key?.startsWith(this.prefix) ? o.Key.slice(this.prefix.length) : undefined;
        if (key && key !== STAMP_KEY) yield { key, modifiedAt: o.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Parts of an interrupted multipart upload are never visible objects; a bucket lifecycle rule expires them. */
  async purgeTemporary(): Promise<number> {
    return 0;
  }

  /** Releases the SDK's sockets (tests, shutdown). */
  close(): void {
    this.client.destroy();
  }
}
