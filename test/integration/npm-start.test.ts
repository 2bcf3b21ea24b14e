import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, childEnv, finished, freePort } from '../helpers/processes.js';

/**
 * `npm start` is how operators and supervisors (systemd, Docker, Kubernetes) run the service, and
 * they stop it by signalling that very process. The server must drain, release the DATA_DIR lock
 * and exit 0, with nothing left listening.
 */
describe('npm start stops on a signal sent to npm itself', () => {
  let dataDir: string;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const startNpm = (port: number) => {
    const child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: childEnv({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { child, exited: finished(child) };
  };

  const waitListening = async (port: number, exited: Promise<unknown>) => {
    let gone = false;
    void exited.then(() => {
      gone = true;
    });
    for (let i = 0; i < 1200 && !gone; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('npm start did not become ready');
  };

  const refused = (port: number) =>
    fetch(`http://127.0.0.1:${port}/health`).then(
      () => false,
      () => true,
    );

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: drains, releases the DATA_DIR lock and exits 0',
    async (signal) => {
      dataDir ??= await mkdtemp(path.join(os.tmpdir(), 'pps-npm-start-'));
      const port = await freePort();
      const { child, exited } = startNpm(port);
      await waitListening(port, exited);
      expect(existsSync(path.join(dataDir, '.lock'))).toBe(true);

      child.kill(signal); // npm's own pid, as a supervisor would
      // The server gives up draining after 25 s; an orphaned server keeps npm's pipes open, so never exits here.
      const result = await Promise.race([
        exited,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`npm start still running 30 s after ${signal}`)), 30_000)),
      ]);
      expect(result.signal, result.stderr).toBeNull();
      expect(result.code, result.stderr).toBe(0);
      expect(await refused(port)).toBe(true);
      expect(existsSync(path.join(dataDir, '.lock'))).toBe(false);
    },
    180_000,
  );
});
