import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { AppError } from '../errors.js';
import { canonical } from './canonical-json.js';

/**
 * A strong ETag: the SHA-256 of the representation as canonical JSON (keys sorted). Any change of a
 * field the client sees (the resource's own or an embedded one's) changes it, and two reads of the
 * same state give the same tag however the object was assembled.
 */
export const etagOf = (representation: unknown): string => `"${createHash('sha256').update(canonical(representation)).digest('base64url')}"`;

/** If-Match with the strong comparison (RFC 9110 13.1.1): `*` matches any current resource, a list when one of its tags is current; weak tags never match. */
export function ifMatchHolds(header: string, current: string): boolean {
  const value = header.trim();
  if (value === '*') return true;
  return value.split(',').some((tag) => tag.trim() === current);
}

/**
 * Throws 412 when If-Match was sent and does not match the current representation. `current` is only
 * built when the header is there; callers run this after locking the row, so nothing changes between
 * the check and their write.
 */
export async function requireIfMatch(ifMatch: string | undefined, current: () => unknown): Promise<void> {
  if (ifMatch === undefined || ifMatchHolds(ifMatch, '*')) return;
  if (!ifMatchHolds(ifMatch, etagOf(await current()))) {
    throw new AppError('preconditionFailed', 'If-Match does not match the current ETag of the resource; read it again and reapply the change');
  }
}

/** The request header of a conditional PATCH, as the route schema (and so the OpenAPI document) declares it. */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      maxLength: 2000,
      description: 'ETag(s) of a previous GET or PATCH; the change is made only if one is current (412 otherwise). `*` matches any.',
    }),
  ),
});

/** The response header of GET and PATCH of one estate, building or apartment. */
export const ETAG_HEADER = { ETag: { type: 'string', description: 'Strong ETag of this representation; send it back in If-Match' } };

/** The 304 of a GET that answers If-None-Match (a list, a publishable read). */
export const NOT_MODIFIED = Type.Null({ description: 'Not modified: If-None-Match named the current ETag' });

/** The ETag of bytes about to be sent as they are (public documents, publishable answers). */
export const bytesEtag = (body: string | Buffer): string => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** Whether If-None-Match names `etag` (weak comparison, as RFC 9110 asks for GET): then the answer is 304. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
