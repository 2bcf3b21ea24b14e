import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a preview link renders the page. */
export const PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;

// Version 1 signs what links signed before versions existed (migration 0017), so those stay valid until revoked.
const mac = (secret: Buffer, estateId: string, expires: number, version: number) =>
  createHmac('sha256', secret)
    .update(version === 1 ? `page-preview:${estateId.toLowerCase()}:${expires}` : `page-preview:${estateId.toLowerCase()}:v${version}:${expires}`)
    .digest('base64url');

/**
 * The `preview` query value: `{expires (ms since epoch)}.{HMAC-SHA256 of estate, preview version and
 * expiry under the estate's secret}`. Revoking the estate's previews moves its version on.
 */
export function signPreview(secret: Buffer, estateId: string, expires: number, version = 1): string {
  return `${expires}.${mac(secret, estateId, expires, version)}`;
}

/** Whether `token` is a preview of this estate signed with its secret and current preview version, not expired at `now`. */
export function verifyPreview(secret: Buffer, estateId: string, token: string, version = 1, now = Date.now()): boolean {
  const match = /^(\d{13,15})\.([\w-]{43})$/.exec(token);
  if (!match) return false;
  const expires = Number(match[1]);
  if (!(expires > now) || expires > now + PREVIEW_TTL_MS + 60_000) return false;
  const expected = Buffer.from(mac(secret, estateId, expires, version));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
