import { parentPort, workerData } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';
import { type ThreadPriority, lowerThreadPriority } from '../../../db/pglite-thread.js';

/**
 * The worker side of passwords.ts: one Argon2id hash or verification per message, on this thread, which
 * first lowers its own scheduling priority to the database thread's (so a burst of sign-ins never takes a
 * core from the event loop or from the embedded database; docs/decisions.md, "Argon2 on threads of its own").
 */
const port = parentPort!;
const { priority } = workerData as { priority?: ThreadPriority };
if (priority !== undefined) lowerThreadPriority(priority);

type Job = { id: number; op: 'hash'; password: string } | { id: number; op: 'verify'; stored: string; password: string };

port.on('message', (m: Job) => {
  try {
    const value = m.op === 'hash' ? hashSync(m.password) : verifySync(m.stored, m.password);
    port.postMessage({ id: m.id, ok: true, value });
  } catch (err) {
    port.postMessage({ id: m.id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
