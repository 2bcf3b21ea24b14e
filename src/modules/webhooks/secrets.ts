import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Endpoint secrets. Unlike API keys they must be recoverable (the service signs with them), so they
 * cannot be hashed: with WEBHOOK_SECRET_KEY set they are sealed with AES-256-GCM before they reach the
 * database (a dump or backup alone reveals nothing); without it they are stored as they are, marked
 * `plain:` so a key set later still reads them. They are never logged: only this module sees them.
 */

const SECRET_PREFIX = 'whsec_';

/** A new secret: `whsec_` + base64 of 24 random bytes, the form Standard Webhooks libraries read. */
export const newSecret = (): string => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

export function seal(secret: string, key: Buffer | undefined): string {
  if (!key) return `plain:${secret}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `gcm:${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${sealed.toString('base64')}`;
}

export class SecretUnavailableError extends Error {}

export function unseal(stored: string, key: Buffer | undefined): string {
  if (stored.startsWith('plain:')) return stored.slice('plain:'.length);
  const [scheme, iv, tag, data] = stored.split(':');
  if (scheme !== 'gcm' || !iv || !tag || !data) throw new SecretUnavailableError('the stored secret has an unknown form');
  if (!key) throw new SecretUnavailableError('the secret is sealed and WEBHOOK_SECRET_KEY is not set');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnavailableError('the secret was sealed with another WEBHOOK_SECRET_KEY');
  }
}

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
 * under each secret (the key is the base64 after `whsec_`), space-separated while a rotated-out secret
 * still signs.
 */
export function signatureHeader(secrets: string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
