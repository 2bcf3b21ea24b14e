import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    message: string,
    /** Who holds the lock, as its lock file says: "pid 123, server". */
    readonly holder = 'another process',
  ) {
    super(message);
  }
}

export interface DataDirLock {
  release(): void;
}

/** Whether pid is a running process. A zombie (killed, not yet reaped by its parent) holds no files: not alive. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/**
 * Linux tells a zombie apart in /proc/<pid>/stat (state Z, or X while it is being reaped); `kill 0`
 * succeeds on one. Elsewhere this answers false and the wait in acquireDataDirLock covers the gap.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

// A writer fills its lock file within microseconds of creating it; an unreadable one older than this
// was left by a process that died in between, and would otherwise need a manual clean-up.
const HALF_WRITTEN_GRACE_MS = 5_000;

/** Lock files this process holds: a lock naming our own pid that is not in here is a previous life's. */
const held = new Set<string>();

function lockAgeMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Takes the exclusive lock on DATA_DIR. PGlite has no lock of its own and two processes on one
 * data directory corrupt it silently, so the second one must refuse to start.
 *
 * The lock file is created with O_EXCL and holds the owner's pid and host. A lock left by a
 * process that died (SIGKILL, power loss) is taken over at once when that pid is no longer
 * alive on this host, so a crash never needs a manual clean-up or a stale-lock timeout.
 */
export function lockDataDir(dataDir: string, purpose: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, '.lock');
  const host = os.hostname();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, host, purpose, since: new Date().toISOString() }));
      closeSync(fd);
      held.add(file);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          held.delete(file);
          try {
            const owner = JSON.parse(readFileSync(file, 'utf8')) as { pid?: number };
            if (owner.pid === process.pid) rmSync(file, { force: true });
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner: { pid?: number; host?: string; purpose?: string } = {};
    let unreadable = false;
    try {
      owner = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // A half-written lock file: its writer died between create and write, or is writing now.
      unreadable = true;
    }
    // In a container the restarted server often gets the very pid its killed predecessor had (pid 1),
    // so "that pid is alive" is only evidence of another owner when it is not our own pid.
    const ownPidFromEarlierLife = owner.pid === process.pid && owner.host === host && !held.has(file);
    const stale =
      ownPidFromEarlierLife ||
      (typeof owner.pid === 'number' && owner.host === host && !processAlive(owner.pid)) ||
      (unreadable && lockAgeMs(file) > HALF_WRITTEN_GRACE_MS);
    if (stale) {
      rmSync(file, { force: true });
      continue;
    }
    const holder = `pid ${owner.pid ?? 'unknown'}${owner.purpose ? `, ${owner.purpose}` : ''}`;
    throw new DataDirLockedError(
      `The data directory ${dataDir} is in use by another process (${holder}). Only one process may open the embedded database; ` +
        'stop it first, or use the admin API of the running server.',
      holder,
    );
  }
  throw new DataDirLockedError(`Could not take the lock on ${dataDir}`);
}

/** How long a start waits for a lock held by a process that is going away. */
export const LOCK_WAIT_MS = 5_000;
const LOCK_POLL_MS = 100;

/**
 * lockDataDir, retried for up to waitMs while another live process holds the lock. A supervisor that
 * restarts the server at once after a kill can find the old process still alive for a moment (shutting
 * down, or dead but not yet reaped where zombies cannot be told apart): the start waits for it to go
 * instead of failing. A lock still held after the wait is refused with the usual message.
 */
export async function acquireDataDirLock(
  dataDir: string,
  purpose: string,
  waitMs = LOCK_WAIT_MS,
  /** Called once, at the first refusal, before the wait: the start says at once what it waits for. */
  onWait?: (holder: string, waitMs: number) => void,
): Promise<DataDirLock> {
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    try {
      return lockDataDir(dataDir, purpose);
    } catch (err) {
      if (!(err instanceof DataDirLockedError) || Date.now() >= deadline) throw err;
      if (!told) {
        told = true;
        onWait?.(err.holder, waitMs);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}
