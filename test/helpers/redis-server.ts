import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { freePort } from './processes.js';

export interface OwnRedis {
  url: string;
  /** SIGSTOP: the socket stays open and nothing answers (a hung Redis, a partition). */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  stop(): Promise<void>;
}

/** A redis-server of the test's own on a free port: never the shared one, which tests must not stop. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answered = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.setTimeout(500, () => socket.destroy());
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (d) => {
        socket.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
      socket.once('close', () => resolve(false));
      socket.once('error', () => resolve(false));
    });
    if (answered) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start on port ${port}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const signal = (s: NodeJS.Signals) => {
    if (child.exitCode === null && child.pid) process.kill(child.pid, s);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    stop: async () => {
      signal('SIGCONT');
      signal('SIGKILL');
      await exited;
    },
  };
}
