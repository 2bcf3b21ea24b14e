import type { FastifyReply, FastifyRequest } from 'fastify';
import { BoundedMap } from '../../bounded-map.js';
import type { Queryable } from '../../db/client.js';
import { notFound } from '../../errors.js';
import { CompressibleBody, sendCompressible } from '../../http/compression.js';
import { bytesEtag, ifNoneMatchHits } from '../../http/etag.js';
import { isUuid } from '../../ids.js';
import { ADDON_CHANNEL, type AddonKind, findAddonState } from './state.js';

/** Seconds a browser or CDN may reuse an anonymous add-on document without asking again. */
export const PUBLIC_MAX_AGE_SECONDS = 30;
const CACHE_ENTRIES = 2_000;

/** Builds one add-on's document in a fixed number of statements, with the version read in the same snapshot. */
export interface AddonReader<D extends { enabled: boolean }> {
  kind: AddonKind;
  build(db: Queryable, organizationId: string, estateId: string): Promise<{ doc: D; version: number }>;
  /** What an anonymous caller sees while the add-on is off. */
  empty(): D;
}

interface Entry {
  generation: number;
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
 * the `addon_changed` notification the write sends (see listener.ts).
 */
export function invalidateAddon(kind: AddonKind, estateId: string): void {
  for (const cache of caches) cache.invalidate(`${kind}:${estateId}`);
}

/**
 * Serialized anonymous documents. Two modes:
 * - trusted: every change reaches this process as an invalidation (PGlite, where the DATA_DIR lock
 *   makes this the only writer; PostgreSQL while the LISTEN connection is up). A hit costs no query.
 * - verify: each read asks the database for the add-on version (one indexed lookup) and reuses the
 *   cached bytes only when the version matches, so a write on any instance is seen at once.
 */
export class PublicDocumentCache {
  private readonly entries = new BoundedMap<string, Entry>(CACHE_ENTRIES);
  private readonly generations = new Map<string, number>();
  private trusted: boolean;
  /** Read by the metrics at scrape time. */
  readonly stats = { hits: 0, misses: 0, invalidations: 0 };

  constructor(trusted: boolean) {
    this.trusted = trusted;
    caches.add(this);
  }

  setTrusted(trusted: boolean): void {
    // Anything cached while notifications may have been missed is suspect.
    if (trusted !== this.trusted) this.clear();
    this.trusted = trusted;
  }

  get isTrusted(): boolean {
    return this.trusted;
  }

  generation(key: string): number {
    return this.generations.get(key) ?? 0;
  }

  invalidate(key: string): void {
    this.stats.invalidations++;
    this.generations.set(key, this.generation(key) + 1);
    this.entries.delete(key);
  }

  clear(): void {
    for (const key of this.entries.keys()) this.invalidate(key);
  }

  /** A trusted hit: valid without asking the database. */
  hit(key: string): Entry | undefined {
    if (!this.trusted) return undefined;
    const entry = this.entries.get(key);
    return entry && entry.generation === this.generation(key) ? entry : undefined;
  }

  /** The entry for a version the database just confirmed (verify mode). */
  atVersion(key: string, version: number): Entry | undefined {
    const entry = this.entries.get(key);
    return entry && entry.version === version ? entry : undefined;
  }

  /** Stores an entry built under `generation`; an invalidation since then makes it a miss at once. */
  store(key: string, entry: Entry): void {
    this.entries.set(key, entry);
  }

  dispose(): void {
    caches.delete(this);
  }

  /** As a ChangeSubscriber of the LISTEN connection (src/db/change-listener.ts): payload `<kind>:<estateId>`. */
  subscriber() {
    return { channel: ADDON_CHANNEL, notify: (key: string) => this.invalidate(key), setTrusted: (t: boolean) => this.setTrusted(t) };
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

  const generation = cache.generation(key);
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
    entry = { generation, version, organizationId: state.organizationId, body: new CompressibleBody(body), etag: bytesEtag(body) };
  } else entry = { ...entry, generation };
  cache.store(key, entry);
  return sendPublic(request, reply, entry);
}
