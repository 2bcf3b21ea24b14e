import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_DATABASE, createTestDatabaseUrl, migratedDataDir } from './database.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The environment of a child process: the test's own settings, never the developer's DATABASE_URL by accident. */
export function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: undefined,
    DATABASE_DIRECT_URL: undefined,
    PORT: undefined,
    LOG_LEVEL: 'silent',
    // The server's PGlite thread at normal priority: under SCHED_IDLE (the default) it gets no core while
    // the test runner's own workers keep both busy, and a start took more than the tests' 120 s in CI.
    DATABASE_THREAD_PRIORITY: '0',
    ...extra,
  };
  return Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript entry of src/ through tsx, as `npm run cli` runs the built one. */
export function spawnTs(entry: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function finished(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export const runCli = (args: string[], env: NodeJS.ProcessEnv) => finished(spawnTs('src/cli/index.ts', args, env));

/** A port nobody listens on right now, for a server child process. */
export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerChild {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote so far. */
  output(): string;
  /** Resolves when the output matches, rejects when the process exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<Finished>;
}

/** Starts `src/server.ts` as its own process; call ready() before sending traffic. */
export function startServerChild(env: NodeJS.ProcessEnv, port: number, entry: [string, ...string[]] = ['src/server.ts']): ServerChild {
  const [file, ...args] = entry;
  const child = spawnTs(file, args, { ...env, PORT: String(port), HOST: '127.0.0.1' });
  let text = '';
  const waiters = new Set<() => void>();
  const exited = finished(child);
  const onData = (d: Buffer) => {
    text += d.toString();
    for (const w of waiters) w();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => text,
    exited,
    waitForOutput(pattern, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(text)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${text}`));
        }, timeoutMs);
        waiters.add(check);
        exited.then((f) => {
          if (!pattern.test(text)) reject(new Error(`process exited (${f.code ?? f.signal}) before ${pattern}:\n${text}`));
        });
        check();
      });
    },
  };
}

/** Polls GET /health/ready until the server answers 200. */
export async function waitReady(server: ServerChild, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitedEarly = false;
  void server.exited.then(() => {
    exitedEarly = true;
  });
  while (Date.now() < deadline) {
    if (exitedEarly) throw new Error(`server exited before it was ready:\n${server.output()}`);
    try {
      const res = await fetch(`${server.url}/health/ready`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not ready in ${timeoutMs} ms:\n${server.output()}`);
}

/** Server processes of one test file, on its own DATA_DIR and (on the PostgreSQL pass) its own database. */
export interface ServerProcesses {
  dataDir: string;
  /** The test database on the PostgreSQL pass; undefined on PGlite (then the database is under dataDir). */
  databaseUrl: string | undefined;
  /** DATA_DIR, DATABASE_URL, DATABASE_DIRECT_URL and the file's own settings. */
  env: NodeJS.ProcessEnv;
  /** A server on a free port with `env`, remembered for close(); with `ready`, once it answers /health/ready. */
  start(options?: { ready?: boolean }): Promise<ServerChild>;
  /** Remembers a server started another way (another environment or port) for close(). */
  track(server: ServerChild): ServerChild;
  /** SIGKILLs what still runs, waits for every exit, drops the database and removes DATA_DIR. */
  close(): Promise<void>;
}

/**
 * A new DATA_DIR; on PGlite its database is a copy of the run's migrated cluster (a fresh one would
 * spend most of the file's set-up in initdb), unless `empty` asks for a first start.
 */
export async function testDataDir(prefix: string, options: { empty?: boolean } = {}): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const migrated = migratedDataDir();
  if (TEST_DATABASE === 'pglite' && migrated && !options.empty) await cp(migrated, path.join(dataDir, 'pglite'), { recursive: true });
  return dataDir;
}

export async function serverProcesses(prefix: string, settings: Record<string, string | undefined>): Promise<ServerProcesses> {
  const dataDir = await testDataDir(prefix);
  const database = TEST_DATABASE === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const env = childEnv({ DATA_DIR: dataDir, DATABASE_URL: database?.url, DATABASE_DIRECT_URL: database?.directUrl, ...settings });
  const started: ServerChild[] = [];
  const track = (server: ServerChild) => {
    started.push(server);
    return server;
  };
  return {
    dataDir,
    databaseUrl: database?.url,
    env,
    track,
    async start(options = {}) {
      const server = track(startServerChild(env, await freePort()));
      if (options.ready) await waitReady(server);
      return server;
    },
    async close() {
      for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      await Promise.all(started.map((s) => s.exited));
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
