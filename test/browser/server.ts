import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT, childEnv, freePort } from '../helpers/processes.js';

export const ADMIN_TOKEN = 'browser-operator-token-0123456789';

export interface PageServer {
  base: string;
  child: ChildProcess;
  /** What the server wrote on stderr (warnings and errors): a test checks it stayed free of errors. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * The built server (`dist/src/server.js`, as `npm start` runs it) on the embedded PGlite in a fresh
 * DATA_DIR, on a free loopback port that is also its PUBLIC_URL (so every URL the page holds is its own origin).
 */
export async function startPageServer(extraEnv: Record<string, string> = {}): Promise<PageServer> {
  const entry = path.join(ROOT, 'dist', 'src', 'server.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: npm run build first (npm run test:browser does)`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-browser-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: childEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ANONYMOUS_MAX: '1000000',
      RATE_LIMIT_KEY_MAX: '1000000',
      RATE_LIMIT_INQUIRY_MAX: '1000',
      ...extraEnv,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  // Up to 3 minutes: a 2-core machine busy with other tests starts PGlite slowly.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/health/ready`)).ok) return { base, child, log: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`the server did not start in 3 minutes (exit ${child.exitCode}): ${output}`);
}
