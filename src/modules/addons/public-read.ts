import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { type CacheStore, ReadCache, type Stamp } from '../../db/read-cache.js';
import { notFound } from '../../errors.js';
import { CompressibleBody, sendCompressible } from '../../http/compression.js';
import { bytesEtag, ifNoneMatchHits } from '../../http/etag.js';
import { isUuid } from '../../ids.js';
import { ADDON_CHANNEL, type AddonKind, addonOfPayload, findAddonState } from './state.js';

/** Seconds a browser or CDN may reuse an anonymous add-on document without asking again. */
export const PUBLIC_MAX_AGE_SECONDS = 30;

/** Builds one add-on's document in a fixed number of statements, with the version read in the same snapshot. */
export interface AddonReader<D extends { enabled: boolean }> {
  kind: AddonKind;
  build(db: Queryable, organizationId: string, estateId: string): Promise<{ doc: D; version: number }>;
  /** What an anonymous caller sees while the add-on is off. */
  empty(): D;
}

interface Entry {
  version: number;
  organizationId: string;
  /**
   * Encoded once: a hit writes these bytes as they are, with no per-request UTF-8 encoding, and its br or
   * gzip bytes are made on the first request that accepts them and kept beside them (no per-request compression).
   */
  body: CompressibleBody;
  etag: string;
}

const caches = new Set<PublicDocumentCache>();

/**
 * Drops the cached public document of one add-on in every cache of this process. Called after an
 * add-on write commits (and inside asset deletion); other instances learn of the change through
 * the `addon_changed` notification the write sends (touchAddon).
 */
export function invalidateAddon(kind: AddonKind, estateId: string): void {
  for (const cache of caches) cache.invalidate(`${kind}:${estateId}`);
}

/**
 * Serialized anonymous documents, kept in the process's one cache (src/db/read-cache.ts) with the add-on
 * (`<kind>:<estateId>`) as their scope: a write to one add-on makes only its document stale. Two modes:
 * - trusted: every change reaches this process as an invalidation (PGlite, where the DATA_DIR lock
 *   makes this the only writer; PostgreSQL while the LISTEN connection is up). A hit costs no query.
 * - verify: each read asks the database for the add-on version (one indexed lookup) and reuses the
 *   kept bytes only when the version matches, so a write on any instance is seen at once.
 */
export class PublicDocumentCache {
  private readonly cache: ReadCache<Entry>;
  /** Read by the metrics at scrape time. */
  readonly stats = { hits: 0, misses: 0, invalidations: 0 };

  constructor(store: CacheStore, trusted: boolean) {
    this.cache = new ReadCache<Entry>({
      store,
      trusted,
      channels: [ADDON_CHANNEL],
      scopeOfPayload: (payload) => addonOfPayload(payload).addon,
      weigh: (entry) => entry.body.weight,
      keepUntrusted: true,
    });
    caches.add(this);
  }

  setTrusted(trusted: boolean): void {
    this.cache.setTrusted(trusted);
  }

  get isTrusted(): boolean {
    return this.cache.isTrusted;
  }

  invalidate(key: string): void {
    this.stats.invalidations++;
    this.cache.invalidate(key);
  }

  /** Taken before the database is read, and given back to `store`. */
  stamp(): Stamp {
    return this.cache.stamp();
  }

  /** A trusted hit: valid without asking the database. */
  hit(key: string): Entry | undefined {
    return this.cache.get(key, { scope: key });
  }

  /** The entry for a version the database just confirmed (verify mode). */
  atVersion(key: string, version: number): Entry | undefined {
    const entry = this.cache.peek(key);
    return entry && entry.version === version ? entry : undefined;
  }

  /** Keeps an entry read from a state no older than `stamp`; an invalidation since then keeps it out. */
  store(key: string, entry: Entry, stamp: Stamp): void {
    this.cache.set(key, entry, stamp, { scope: key });
  }

  dispose(): void {
    caches.delete(this);
  }

  /** As a ChangeSubscriber of the LISTEN connection (src/db/change-listener.ts): payload `<kind>:<estateId>:<organizationId>`. */
  subscriber() {
    return this.cache.subscribers()[0]!;
  }
}

function sendPublic(request: FastifyRequest, reply: FastifyReply, entry: Entry) {
  reply.header('vary', 'authorization');
  reply.header('cache-control', `public, max-age=${PUBLIC_MAX_AGE_SECONDS}`);
  reply.header('etag', entry.etag);
  if (ifNoneMatchHits(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  return sendCompressible(reply, entry.body);
}

/**
 * GET of an add-on base path. The owning organization's key sees the content whether or not the
 * add-on is on, uncached; everyone else (anonymous or another organization's key) gets the public
 * view with an ETag and a short public Cache-Control.
 */
export async function serveAddon<D extends { enabled: boolean }>(
  db: Queryable,
  cache: PublicDocumentCache,
  reader: AddonReader<D>,
  request: FastifyRequest,
  reply: FastifyReply,
  estateId: string,
): Promise<unknown> {
  const key = `${reader.kind}:${estateId.toLowerCase()}`;
  const hit = cache.hit(key);
  if (hit && request.auth?.organizationId !== hit.organizationId) {
    cache.stats.hits++;
    return sendPublic(request, reply, hit);
  }

  const stamp = cache.stamp();
  const state = isUuid(estateId) ? await findAddonState(db, estateId, reader.kind) : undefined;
  if (!state) throw notFound('Estate', estateId);
  if (request.auth?.organizationId === state.organizationId) {
    reply.header('vary', 'authorization');
    reply.header('cache-control', 'private, no-store');
    return (await reader.build(db, state.organizationId, estateId)).doc;
  }

  let entry = cache.atVersion(key, state.version);
  if (entry) cache.stats.hits++;
  else cache.stats.misses++;
  if (!entry) {
    let doc = reader.empty();
    let version = state.version;
    if (state.enabled) {
      const built = await reader.build(db, state.organizationId, estateId);
      version = built.version;
      if (built.doc.enabled) doc = built.doc;
    }
    const body = Buffer.from(reply.serialize(doc) as string);
    entry = { version, organizationId: state.organizationId, body: new CompressibleBody(body), etag: bytesEtag(body) };
  }
  cache.store(key, entry, stamp);
  return sendPublic(request, reply, entry);
}
