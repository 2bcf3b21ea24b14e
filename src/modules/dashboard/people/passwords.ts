import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

/** Shortest password accepted (docs/decisions.md, "The dashboard"). */
export const MIN_PASSWORD_LENGTH = 12;
/** Longer is refused before hashing: Argon2 of a megabyte is a cheap way to make the server work. */
export const MAX_PASSWORD_LENGTH = 200;

/**
 * Argon2 jobs running at once. The binding hashes on libuv's thread pool (4 threads unless
 * UV_THREADPOOL_SIZE), which the service's other work shares: zlib compressing an answer, file reads.
 * Twenty sign-ins at once queued there made every compressed GET wait behind them (p99 over a second,
 * docs/performance.md "The dashboard"), and two hashing on two cores left the event loop no CPU; so at most
 * half the pool and one core fewer than the machine has run at once.
 */
export const ARGON2_RUNNING_MAX = Math.max(1, Math.min(Math.floor((Number(process.env.UV_THREADPOOL_SIZE) || 4) / 2), os.availableParallelism() - 1));

let running = 0;
const waiting: Array<() => void> = [];

/** Argon2 jobs running and waiting now (tests). */
export const argon2Load = () => ({ running, waiting: waiting.length });

/** Runs `job` once fewer than ARGON2_RUNNING_MAX others run; the others wait in order of arrival. */
async function gated<T>(job: () => Promise<T>): Promise<T> {
  if (running >= ARGON2_RUNNING_MAX) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await job();
  } finally {
    const next = waiting.shift();
    // The slot passes to the next waiter as it is (running stays counted), or is given back.
    if (next) next();
    else running--;
  }
}

/**
 * Argon2id (the @node-rs/argon2 defaults are OWASP's second option: 19 MiB, 2 passes, 1 lane), off the
 * event loop (libuv's threads), at most ARGON2_RUNNING_MAX at once.
 */
export const hashPassword = (password: string): Promise<string> => gated(() => hash(password));
const verifyHash = (stored: string, password: string): Promise<boolean> => gated(() => verify(stored, password)).catch(() => false);

/** A hash of nothing anyone typed: verified against when the account does not exist, so both take as long. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  if (!stored) {
    decoy ??= hashPassword('decoy password that no account has');
    await verifyHash(await decoy, password);
    return false;
  }
  return verifyHash(stored, password);
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
