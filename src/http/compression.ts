import { promisify } from 'node:util';
import { constants, brotliCompress, gzip } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BoundedMap } from '../bounded-map.js';
import { addRouteHook } from './route-config.js';

/**
 * Compression of JSON and HTML answers (issue 29), one mechanism for every route: `br` when the client
 * accepts it, else `gzip`, for bodies of at least COMPRESS_MIN_BYTES, with `Vary: Accept-Encoding`.
 *
 * An answer the service keeps (a list, a public page) is compressed once, not per request: the route
 * sends a CompressibleBody with sendCompressible, and the hook answers each encoding from the bytes that
 * body keeps (compressed on the first request that asks for it). Any other answer is compressed per
 * request, a large one (FAST_FROM_BYTES) with each format's fastest setting. Never compressed: streams
 * (files, their Range answers), 204/206/304, an answer that already has a Content-Encoding or a
 * Content-Range, any other type (images, PDFs, archives), and the routes whose config says
 * `compress: false` (/files).
 *
 * The ETag is the same for every encoding (the identity bytes' tag), as @fastify/compress and
 * Express's compression leave it: an If-Match on PATCH keeps working whatever the GET was sent in, and
 * `Vary: Accept-Encoding` keeps the encodings apart in caches.
 */

export type Encoding = 'br' | 'gzip';

/** Smaller answers fit in one packet anyway; compressing them costs more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;
/**
 * Brotli quality 5 and gzip level 6: brotli's default (11) took seconds for a 500 kB list; 5 makes the
 * apartment lists smaller than gzip -9 in a fraction of its time (docs/performance.md, issue 29). What a
 * kept answer (compressed once) and any answer under FAST_FROM_BYTES get.
 */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;
/**
 * A large answer compressed per request (a dashboard screen: 2,000 apartments are about 2 MB of HTML)
 * gets each format's fastest setting instead: on the apartments screen brotli 1 took 6 ms where 5 took
 * 45 ms, gzip 1 8 ms where 6 took 40 ms, for 10-60% more bytes (docs/performance.md, "The dashboard").
 * Below this size either setting costs well under a millisecond, so the smaller answer wins.
 */
export const FAST_FROM_BYTES = 256 * 1024;
const FAST_BROTLI_QUALITY = 1;
const FAST_GZIP_LEVEL = 1;

const COMPRESSIBLE_TYPE = /^(?:application\/(?:[\w.-]+\+)?json|text\/html|text\/css|text\/javascript)\s*(?:;|$)/i;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Compressions made by this process (every encoding of every answer): a kept answer adds one per encoding, ever. */
export const compressionStats = { made: 0 };

/**
 * The bytes of `identity` in `encoding` (zlib's thread pool: the event loop never waits for it). `perRequest`:
 * made for one answer only, so a large one gets the fast setting (FAST_FROM_BYTES).
 */
export function compress(identity: Buffer, encoding: Encoding, perRequest = false): Promise<Buffer> {
  compressionStats.made++;
  const fast = perRequest && identity.length >= FAST_FROM_BYTES;
  return encoding === 'br'
    ? brotli(identity, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: fast ? FAST_BROTLI_QUALITY : BROTLI_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        },
      })
    : gzipped(identity, { level: fast ? FAST_GZIP_LEVEL : GZIP_LEVEL });
}

/**
 * An answer kept by the service, with each encoding made at most once (on the first request that
 * accepts it) and kept beside it. Never changed: a new answer is a new CompressibleBody.
 */
export class CompressibleBody {
  private readonly encoded: { br?: Promise<Buffer>; gzip?: Promise<Buffer> } = {};

  constructor(readonly identity: Buffer) {}

  encode(encoding: Encoding): Promise<Buffer> {
    let bytes = this.encoded[encoding];
    if (!bytes) {
      bytes = compress(this.identity, encoding);
      this.encoded[encoding] = bytes;
      // A failure is not kept: the next request tries again.
      bytes.catch(() => {
        if (this.encoded[encoding] === bytes) delete this.encoded[encoding];
      });
    }
    return bytes;
  }

  /** Bytes this answer may come to hold: the identity and both encodings (each well under half of it for JSON and HTML). */
  get weight(): number {
    return this.identity.length * 2;
  }
}

declare module 'fastify' {
  interface FastifyReply {
    /** Set by sendCompressible: the kept answer whose encodings the compression hook reuses. */
    compressible: CompressibleBody | null;
  }
  interface FastifyContextConfig {
    /** false: the route's answers are never compressed (files: already compressed formats, Range). */
    compress?: false;
  }
}

/** Response headers of a compressible answer, for the route schemas that document them (the lists). */
export const COMPRESSION_HEADERS = {
  'Content-Encoding': {
    type: 'string',
    enum: ['br', 'gzip'],
    description: 'br or gzip when the client accepts it (Accept-Encoding) and the answer is at least 1 KB; absent otherwise',
  },
  Vary: { type: 'string', description: 'Names Accept-Encoding (and Authorization on a publishable key’s answer): caches keep each encoding apart' },
};

/** Sends a kept answer; the compression hook then answers from its kept encodings. */
export function sendCompressible(reply: FastifyReply, body: CompressibleBody, type = 'application/json; charset=utf-8'): FastifyReply {
  reply.compressible = body;
  return reply.type(type).send(body.identity);
}

// Accept-Encoding values are few in practice; the cache is bounded because the header is the client's.
const negotiator = new Negotiator<Encoding>({ supportedValues: ['br', 'gzip'], cache: new BoundedMap<string, string>(1_000) });

/** The encoding this request gets for a compressible answer: br, then gzip, by the client's q-values; undefined for none. */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  return acceptEncoding ? (negotiator.negotiate(acceptEncoding) ?? undefined) : undefined;
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) {
    reply.header('vary', 'accept-encoding');
    return;
  }
  const text = String(vary);
  if (text === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(text)) return;
  reply.header('vary', `${text}, accept-encoding`);
}

async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const status = reply.statusCode;
  if (status === 304) {
    // A 304 carries the Vary its 200 would (RFC 9110 15.4.5).
    addVary(reply);
    return payload;
  }
  if (status === 204 || status === 206 || reply.hasHeader('content-encoding') || reply.hasHeader('content-range')) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !COMPRESSIBLE_TYPE.test(type)) return payload;
  addVary(reply);
  if (Buffer.byteLength(payload) < COMPRESS_MIN_BYTES) return payload;
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  if (!encoding) return payload;
  const kept = reply.compressible;
  const bytes =
    kept && kept.identity === payload ? await kept.encode(encoding) : await compress(Buffer.isBuffer(payload) ? payload : Buffer.from(payload), encoding, true);
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  return bytes;
}

/**
 * Installs the hook on every route registered after this call, as the last of its onSend hooks (route
 * hooks run after the application's, and this one is added after the publishable and idempotency
 * hooks): what they store and mask is the identity answer.
 */
export function installCompression(app: FastifyInstance): void {
  app.decorateReply('compressible', null);
  app.addHook('onRoute', (route) => {
    if ((route.config as { compress?: false } | undefined)?.compress === false) return;
    addRouteHook(route, 'onSend', onSend);
  });
}
