import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

/** Shortest password accepted (docs/decisions.md, "The dashboard"). */
export const MIN_PASSWORD_LENGTH = 12;
/** Longer is refused before hashing: Argon2 of a megabyte is a cheap way to make the server work. */
export const MAX_PASSWORD_LENGTH = 200;

/**
 * Argon2id (the @node-rs/argon2 defaults are OWASP's second option: 19 MiB, 2 passes, 1 lane). The
 * binding hashes on libuv's threads, so 20 sign-ins at once never block the event loop.
 */
export const hashPassword = (password: string): Promise<string> => hash(password);

/** A hash of nothing anyone typed: verified against when the account does not exist, so both take as long. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  if (!stored) {
    decoy ??= hash('decoy password that no account has');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

let common: Set<string> | undefined;

/**
 * Why a new password is refused, in the dashboard's words, or null when it is fine. Common passwords are
 * the 49,000 of @zxcvbn-ts/language-common, compared lower-cased and also without digits and symbols
 * added at the end ("password2024!" is "password").
 */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `Enter a password of at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Enter a password of at most ${MAX_PASSWORD_LENGTH} characters.`;
  common ??= new Set(dictionary['passwords-common'] as string[]);
  const lower = password.toLowerCase();
  const stem = lower.replace(/[\d\W_]+$/u, '');
  if (common.has(lower) || (stem.length >= 4 && common.has(stem)) || new Set(lower).size <= 2) {
    return 'This password is too common; choose one that is harder to guess, such as three or four unrelated words.';
  }
  const local = email.trim().toLowerCase().split('@')[0] ?? '';
  if (lower === email.trim().toLowerCase() || (local.length >= 4 && lower.includes(local)))
    return 'Choose a password that does not contain your e-mail address.';
  return null;
}
