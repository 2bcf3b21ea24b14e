import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, acquireDataDirLock, lockDataDir } from '../../src/db/data-dir-lock.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pps-lock-unit-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The pid of a process that has certainly exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const writeLock = (dir: string, owner: Record<string, unknown>) => writeFileSync(path.join(dir, '.lock'), JSON.stringify(owner));

describe('lockDataDir', () => {
  it('takes the lock, refuses a second taker, and can be taken again after release', () => {
    const dir = tempDir();
    const lock = lockDataDir(dir, 'server');
    expect(JSON.parse(readFileSync(path.join(dir, '.lock'), 'utf8'))).toMatchObject({ pid: process.pid, host: os.hostname(), purpose: 'server' });
    expect(() => lockDataDir(dir, 'cli')).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir, 'cli')).toThrow(/is in use by another process \(pid \d+, server\)/);
    lock.release();
    expect(existsSync(path.join(dir, '.lock'))).toBe(false);
    lockDataDir(dir, 'again').release();
  });

  it('takes over a lock left by a dead process on this host', () => {
    const dir = tempDir();
    const pid = deadPid();
    writeLock(dir, { pid, host: os.hostname(), purpose: 'server' });
    const lock = lockDataDir(dir, 'restarted');
    expect(JSON.parse(readFileSync(path.join(dir, '.lock'), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock naming its own pid that it does not hold (a restarted container is pid 1 again)', () => {
    const dir = tempDir();
    writeLock(dir, { pid: process.pid, host: os.hostname(), purpose: 'server' });
    const lock = lockDataDir(dir, 'restarted');
    expect(() => lockDataDir(dir, 'second in this process')).toThrow(DataDirLockedError);
    lock.release();
  });

  it('respects a lock of a live process, and one from another host it cannot check', () => {
    const dir = tempDir();
    writeLock(dir, { pid: process.ppid, host: os.hostname(), purpose: 'server' });
    expect(() => lockDataDir(dir, 'second')).toThrow(DataDirLockedError);
    writeLock(dir, { pid: deadPid(), host: 'some-other-host', purpose: 'server' });
    expect(() => lockDataDir(dir, 'second')).toThrow(DataDirLockedError);
  });

  it('treats an unreadable lock as held while fresh, and as abandoned once old', () => {
    const dir = tempDir();
    const file = path.join(dir, '.lock');
    writeFileSync(file, '');
    expect(() => lockDataDir(dir, 'second')).toThrow(/pid unknown/);
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    lockDataDir(dir, 'second').release();
  });

  it('release never removes a lock another process took over', () => {
    const dir = tempDir();
    const lock = lockDataDir(dir, 'server');
    writeLock(dir, { pid: process.ppid, host: os.hostname(), purpose: 'other' });
    lock.release();
    expect(existsSync(path.join(dir, '.lock'))).toBe(true);
  });
});

/** A process killed but not reaped: its parent (sleep, after exec) never waits for it. Returns its pid and a cleanup. */
async function zombie(): Promise<{ pid: number; stop: () => void }> {
  const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  // Kill the child only once its parent is sleep (after exec): a shell would reap it at once.
  const comm = () => {
    try {
      return readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim();
    } catch {
      return '';
    }
  };
  for (let i = 0; i < 250 && comm() !== 'sleep'; i++) await new Promise((r) => setTimeout(r, 20));
  process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 250 && !/\) Z/.test(readProcStat(pid)); i++) await new Promise((r) => setTimeout(r, 20));
  return { pid, stop: () => parent.kill('SIGKILL') };
}
const readProcStat = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
};

describe('a lock whose owner is going away', () => {
  it('is taken over at once when the owner was killed but not yet reaped (a zombie)', async () => {
    const dir = tempDir();
    const z = await zombie();
    try {
      expect(readProcStat(z.pid)).toMatch(/\) Z /);
      writeLock(dir, { pid: z.pid, host: os.hostname(), purpose: 'server' });
      lockDataDir(dir, 'restarted').release();
    } finally {
      z.stop();
    }
  });

  it('is waited for while its live owner shuts down, then taken', async () => {
    const dir = tempDir();
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    writeLock(dir, { pid: owner.pid, host: os.hostname(), purpose: 'server' });
    expect(() => lockDataDir(dir, 'now')).toThrow(DataDirLockedError);
    const taking = acquireDataDirLock(dir, 'restarted', 20_000);
    setTimeout(() => owner.kill('SIGKILL'), 300);
    const lock = await taking;
    expect(JSON.parse(readFileSync(path.join(dir, '.lock'), 'utf8'))).toMatchObject({ pid: process.pid, purpose: 'restarted' });
    lock.release();
  });

  it('is refused after the wait when its owner stays; the wait is announced once, naming the owner, before it starts', async () => {
    const dir = tempDir();
    writeLock(dir, { pid: process.ppid, host: os.hostname(), purpose: 'server' });
    const told: Array<[string, number]> = [];
    const taking = acquireDataDirLock(dir, 'second', 300, (holder, waitMs) => told.push([holder, waitMs]));
    // Said synchronously at the first refusal, while the wait has not begun.
    expect(told).toEqual([[`pid ${process.ppid}, server`, 300]]);
    await expect(taking).rejects.toThrow(/is in use by another process/);
    expect(told).toHaveLength(1);
  });

  it('says nothing when the lock is free', async () => {
    const told: string[] = [];
    const lock = await acquireDataDirLock(tempDir(), 'first', 300, (holder) => told.push(holder));
    lock.release();
    expect(told).toEqual([]);
  });
});
