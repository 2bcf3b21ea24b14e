import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { dictionary } from '@zxcvbn-ts/language-common';
import { hashingPriority } from './hashing-priority.js';

/** Shortest password accepted (docs/decisions.md, "The dashboard"). */
export const MIN_PASSWORD_LENGTH = 12;
/** Longer is refused before hashing: Argon2 of a megabyte is a cheap way to make the server work. */
export const MAX_PASSWORD_LENGTH = 200;

/**
 * Argon2 jobs running at once, each on a thread of its own (argon2-worker.ts), never on libuv's thread
 * pool: there a burst of twenty sign-ins queued in front of zlib (every compressed answer) and file reads
 * (p99 of a concurrent GET over a second, docs/performance.md "The dashboard"). One core fewer than the
 * machine has (at least 1, at most 4), so a burst never takes every core.
 */
export const ARGON2_RUNNING_MAX = Math.max(1, Math.min(4, os.availableParallelism() - 1));

type Job = { op: 'hash'; password: string } | { op: 'verify'; stored: string; password: string };
type Reply = { id: number; ok: true; value: string | boolean } | { id: number; ok: false; message: string };

/** Threads with no job now (at most ARGON2_RUNNING_MAX exist); each is unref'd while idle, so it keeps no process alive. */
const idleThreads: Worker[] = [];
let nextJob = 1;

function startThread(): Worker {
  // Compiled: the .js next to this file. From source (tests, tsx): the .ts with tsx's loader, as PgliteThread does.
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(fromSource ? './argon2-worker.ts' : './argon2-worker.js', import.meta.url);
  return fromSource
    ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`, {
        eval: true,
        workerData: { priority: hashingPriority() },
      })
    : new Worker(url, { workerData: { priority: hashingPriority() } });
}

/** One job on an idle thread (a new one when none is idle); a thread that fails or exits is not used again. */
function onThread<T>(job: Job): Promise<T> {
  const worker = idleThreads.pop() ?? startThread();
  worker.ref();
  const id = nextJob++;
  return new Promise<T>((resolve, reject) => {
    const settle = (reuse: boolean, done: () => void) => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reuse) {
        worker.unref();
        idleThreads.push(worker);
      }
      done();
    };
    const onMessage = (reply: Reply) => {
      if (reply.id !== id) return;
      settle(true, () => (reply.ok ? resolve(reply.value as T) : reject(new Error(reply.message))));
    };
    const onError = (err: Error) => settle(false, () => reject(err));
    const onExit = (code: number) => settle(false, () => reject(new Error(`The Argon2 thread exited (code ${code})`)));
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ ...job, id });
  });
}

/** At most `max` jobs run at once; the others wait in order of arrival, in process memory. */
function gate(max: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    load: () => ({ running, waiting: waiting.length }),
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
      else running++;
      try {
        return await job();
      } finally {
        const next = waiting.shift();
        // The slot passes to the next waiter as it is (running stays counted), or is given back.
        if (next) next();
        else running--;
      }
    },
  };
}

const argon2Gate = gate(ARGON2_RUNNING_MAX);
const gated = <T>(job: () => Promise<T>) => argon2Gate.run(job);

/** Argon2 jobs running and waiting now (tests). */
export const argon2Load = argon2Gate.load;

/**
 * Sign-ins in progress at once, their statements and their hash together: one more than the hashes that run,
 * so the next one's reads overlap the running hash. On PGlite (one thread runs every statement in turn) twenty
 * sign-ins at once put forty statements in front of any other request's; now they wait here instead
 * (docs/decisions.md, "Argon2 on threads of its own").
 */
export const SIGN_INS_RUNNING_MAX = ARGON2_RUNNING_MAX + 1;
const signInGate = gate(SIGN_INS_RUNNING_MAX);
export const inSignInSlot = <T>(job: () => Promise<T>): Promise<T> => signInGate.run(job);

/**
 * Argon2id (the @node-rs/argon2 defaults are OWASP's second option: 19 MiB, 2 passes, 1 lane), off the
 * event loop and off libuv's pool (the hashing threads above), at most ARGON2_RUNNING_MAX at once.
 */
export const hashPassword = (password: string): Promise<string> => gated(() => onThread<string>({ op: 'hash', password }));
const verifyHash = (stored: string, password: string): Promise<boolean> =>
  gated(() => onThread<boolean>({ op: 'verify', stored, password })).catch(() => false);

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
