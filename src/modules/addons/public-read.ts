import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { notFound } from '../../errors.js';
import { isUuid } from '../../ids.js';
import { type AddonKind, findAddonState } from './state.js';

/** Seconds a browser or CDN may reuse an anonymous add-on document without asking again. */
export const PUBLIC_MAX_AGE_SECONDS = 30;
const CACHE_ENTRIES = 2_000;

export interface AddonDocument {
  enabled: boolean;
  version: number;
}

/** Builds one add-on's document in a fixed number of statements, with the version read in the same snapshot. */
export interface AddonReader<D extends { enabled: boolean }> {
  kind: AddonKind;
  build(db: Queryable, organizationId: string, estateId: string): Promise<{ doc: D; version: number }>;
  /** What an anonymous caller sees while the add-on is off. */
  empty(): D;
}

interface Entry {
  body: string;
  etag: string;
}

/**
 * Serialized anonymous documents keyed by add-on version. Every read still asks the database for the
 * current version (one indexed lookup), so a write on any instance is visible to the next read here;
 * the cache only saves rebuilding and re-serialising an unchanged document.
 */
export class PublicDocumentCache {
  private readonly entries = new Map<string, Entry>();

  get(key: string): Entry | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    if (this.entries.size > CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }
}

const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
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
  const state = isUuid(estateId) ? await findAddonState(db, estateId, reader.kind) : undefined;
  if (!state) throw notFound('Estate', estateId);
  reply.header('vary', 'authorization');
  if (request.auth?.organizationId === state.organizationId) {
    reply.header('cache-control', 'private, no-store');
    return (await reader.build(db, state.organizationId, estateId)).doc;
  }

  const key = (version: number, enabled: boolean) => `${reader.kind}:${estateId}:${version}:${enabled}`;
  let entry = cache.get(key(state.version, state.enabled));
  if (!entry) {
    let doc = reader.empty();
    let version = state.version;
    if (state.enabled) {
      const built = await reader.build(db, state.organizationId, estateId);
      version = built.version;
      if (built.doc.enabled) doc = built.doc;
    }
    const body = reply.serialize(doc) as string;
    entry = { body, etag: etagOf(body) };
    cache.set(key(version, doc.enabled), entry);
  }
  reply.header('cache-control', `public, max-age=${PUBLIC_MAX_AGE_SECONDS}`);
  reply.header('etag', entry.etag);
  if (matches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(entry.body);
}
