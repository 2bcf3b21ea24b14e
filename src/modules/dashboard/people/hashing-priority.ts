import { DATABASE_THREAD_PRIORITY, type ThreadPriority } from '../../../db/pglite-thread.js';

/**
 * The scheduling priority of the password-hashing threads (passwords.ts): the embedded database thread's
 * (DATABASE_THREAD_PRIORITY, SCHED_IDLE by default), set from the configuration at start (runtime.ts). At
 * the process's own priority a hash outranked the database thread, so while a burst of sign-ins was hashed
 * every query (a concurrent GET's, the sign-ins' own) waited for a core; now hashing and the database share
 * what the event loop leaves (docs/decisions.md, "Argon2 on threads of its own"). A module of its own so that
 * runtime.ts does not load the password rules' dictionary.
 */
let priority: ThreadPriority = DATABASE_THREAD_PRIORITY;

export const hashingPriority = (): ThreadPriority => priority;

export function setHashingPriority(value: ThreadPriority): void {
  priority = value;
}
