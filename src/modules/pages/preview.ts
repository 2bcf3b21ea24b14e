import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a preview link renders the page. */
export const PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;

const mac = (secret: Buffer, estateId: string, expires: number) =>
  createHmac('sha256', secret).update(`page-preview:${estateId.toLowerCase()}:${expires}`).digest('base64url');

/** The `preview` query value: `{expires (ms since epoch)}.{HMAC-SHA256 of estate and expiry under the estate's secret}`. */
export function signPreview(secret: Buffer, estateId: string, expires: number): string {
  return `${expires}.${mac(secret, estateId, expires)}`;
}

/** Whether `token` is a preview of this estate signed with its secret and not expired at `now`. */
export function verifyPreview(secret: Buffer, estateId: string, token: string, now = Date.now()): boolean {
  const match = /^(\d{13,15})\.([\w-]{43})$/.exec(token);
  if (!match) return false;
  const expires = Number(match[1]);
  if (!(expires > now) || expires > now + PREVIEW_TTL_MS + 60_000) return false;
  const expected = Buffer.from(mac(secret, estateId, expires));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
