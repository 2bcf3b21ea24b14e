/**
 * The typed client of the Project Publishing Service. `api` is openapi-fetch over the types generated
 * from the served OpenAPI document (src/generated/schema.ts); this file adds only what generation
 * cannot: credentials per surface, retries, Idempotency-Key on creates, the multipart upload and
 * iterators over pages and change feeds.
 */
import { randomUUID } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './generated/schema.js';

export type { components, operations, paths };
export type Schemas = components['schemas'];
export type Asset = Schemas['Asset'];
export type ErrorBody = Schemas['Error'];

export interface PublisherClientOptions {
  /** Where the service runs, e.g. https://publisher.example.com (no path). */
  baseUrl: string;
  /** An organization API key (epk_…): sent on every path but the operator's. */
  key?: string | undefined;
  /** The operator token (ADMIN_TOKEN): sent on /api/v1/admin paths only. */
  adminToken?: string | undefined;
  /** Attempts after the first on 429, 5xx and network errors (default 3). */
  retries?: number;
  /** First backoff when the answer names no Retry-After (default 250 ms, doubled per attempt, at most 10 s). */
  backoffMs?: number;
  /** Makes the Idempotency-Key of a create that has none (default a random UUID). */
  idempotencyKey?: () => string;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

/** A failed call: the status and the service's `{statusCode, message, error}` body. */
export class PublisherError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
    readonly request: string,
  ) {
    super(`${request} answered ${status}: ${body?.message ?? 'no error body'}`);
    this.name = 'PublisherError';
  }
}

const RETRIED = new Set([429, 500, 502, 503, 504]);
const MAX_BACKOFF_MS = 10_000;

/** Seconds or an HTTP date, as Retry-After may say; undefined when absent or unreadable. */
function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that retries 429 and 5xx answers and network errors, honouring Retry-After. A request whose
 * body is a one-shot stream is sent once (its bytes cannot be replayed).
 */
export function retryingFetch(options: Pick<PublisherClientOptions, 'retries' | 'backoffMs' | 'fetch'>): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retries = options.retries ?? 3;
  const backoff = options.backoffMs ?? 250;
  return async (request) => {
    const replayable = !(request.body && request.headers.get('x-publisher-stream') === '1');
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries || !replayable;
      let response: Response;
      try {
        response = await send(last ? request : request.clone());
      } catch (err) {
        if (last) throw err;
        await sleep(Math.min(MAX_BACKOFF_MS, backoff * 2 ** attempt));
        continue;
      }
      if (last || !RETRIED.has(response.status)) return response;
      const wait = retryAfterMs(response) ?? Math.min(MAX_BACKOFF_MS, backoff * 2 ** attempt);
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}

export type UploadSource = string | Uint8Array | Blob | Readable;

export interface UploadOptions {
  /** The asset's name (default: the file name). */
  name?: string;
  /** The file name sent (default: the path's base name, or "upload"). */
  fileName?: string;
  /** Idempotency-Key of this upload (default: a new one). */
  idempotencyKey?: string;
}

export interface PublisherClient {
  /** Every operation, typed from the document: `api.GET('/api/v1/estate/{id}', { params: { path: { id } } })`. */
  api: Client<paths>;
  /** Uploads a file from a path, bytes, a Blob or a stream (streamed, never held whole in memory). */
  upload(source: UploadSource, options?: UploadOptions): Promise<Asset>;
  /** Every item of an offset/limit list, page after page. */
  pages<T>(page: (offset: number, limit: number) => Promise<readonly T[]>, pageSize?: number): AsyncGenerator<T>;
  /** Pages of a change feed from `cursor` until it is drained; store `nextCursor` of the last page. */
  changes(feed: 'apartment' | 'inquiry', cursor?: string): AsyncGenerator<ChangesPage>;
}

export type ChangesPage =
  | { feed: 'apartment'; items: Schemas['Apartment'][]; nextCursor: string }
  | { feed: 'inquiry'; items: Schemas['Inquiry'][]; nextCursor: string };

/** The data of a call, or a PublisherError carrying the service's error body. */
export async function must<D, E>(call: Promise<{ data?: D; error?: E; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (!response.ok) throw new PublisherError(response.status, error as ErrorBody | undefined, `${response.url}`);
  return data as D;
}

export function createPublisherClient(options: PublisherClientOptions): PublisherClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetcher = retryingFetch(options);
  const newKey = options.idempotencyKey ?? randomUUID;
  const api = createClient<paths>({ baseUrl, fetch: fetcher });
  api.use({
    onRequest({ request }) {
      const admin = new URL(request.url).pathname.startsWith('/api/v1/admin/');
      const secret = admin ? options.adminToken : options.key;
      if (secret && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${secret}`);
      // Every creating POST honours Idempotency-Key; the others ignore it. One key per call, kept across retries.
      if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', newKey());
      return request;
    },
  });

  const upload = async (source: UploadSource, opts: UploadOptions = {}): Promise<Asset> => {
    const fileName = opts.fileName ?? (typeof source === 'string' ? basename(source) : 'upload');
    const headers = new Headers({ 'idempotency-key': opts.idempotencyKey ?? newKey() });
    if (options.key) headers.set('authorization', `Bearer ${options.key}`);
    let body: BodyInit;
    if (isReadable(source)) {
      const boundary = `----publisher${randomUUID().replace(/-/g, '')}`;
      headers.set('content-type', `multipart/form-data; boundary=${boundary}`);
      headers.set('x-publisher-stream', '1');
      body = multipartStream(boundary, source, fileName, opts.name);
    } else {
      const blob = typeof source === 'string' ? await openAsBlob(source) : source instanceof Blob ? source : new Blob([Uint8Array.from(source)]);
      const form = new FormData();
      if (opts.name !== undefined) form.append('name', opts.name); // the name must come before the file
      form.append('file', blob, fileName);
      body = form;
    }
    const request = new Request(`${baseUrl}/api/v1/asset/upload`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
    const response = await fetcher(request);
    const parsed: unknown = await response.json().catch(() => undefined);
    if (response.status !== 201) throw new PublisherError(response.status, parsed as ErrorBody | undefined, 'POST /api/v1/asset/upload');
    return parsed as Asset;
  };

  async function* pages<T>(page: (offset: number, limit: number) => Promise<readonly T[]>, pageSize = 100): AsyncGenerator<T> {
    for (let offset = 0; ; offset += pageSize) {
      const items = await page(offset, pageSize);
      yield* items;
      if (items.length < pageSize) return;
    }
  }

  async function* changes(feed: 'apartment' | 'inquiry', cursor?: string): AsyncGenerator<ChangesPage> {
    let next = cursor;
    for (;;) {
      const query = next === undefined ? {} : { cursor: next };
      const page: ChangesPage =
        feed === 'apartment'
          ? { feed, ...(await must(api.GET('/api/v1/apartment/changes', { params: { query } }))) }
          : { feed, ...(await must(api.GET('/api/v1/inquiry/changes', { params: { query } }))) };
      yield page;
      if (page.items.length === 0) return;
      next = page.nextCursor;
    }
  }

  return { api, upload, pages, changes };
}

function isReadable(source: UploadSource): source is Readable {
  return typeof source === 'object' && source !== null && 'pipe' in source && typeof source.pipe === 'function';
}

/** A multipart body whose file part is the stream itself, so the file is never held in memory. */
function multipartStream(boundary: string, source: Readable, fileName: string, name: string | undefined): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const quoted = (value: string) => value.replace(/[\r\n"]/g, (c) => encodeURIComponent(c));
  let head = '';
  if (name !== undefined) head += `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(fileName)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const iterator = source[Symbol.asyncIterator]();
  let stage: 'head' | 'body' | 'done' = 'head';
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stage === 'head') {
        stage = 'body';
        controller.enqueue(encoder.encode(head));
        return;
      }
      if (stage === 'done') return;
      const chunk = (await iterator.next()) as IteratorResult<Uint8Array | string>;
      if (chunk.done) {
        stage = 'done';
        controller.enqueue(encoder.encode(tail));
        controller.close();
        return;
      }
      controller.enqueue(typeof chunk.value === 'string' ? encoder.encode(chunk.value) : chunk.value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
