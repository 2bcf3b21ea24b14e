import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
  /** The status the receiver answers (or would have, for a delayed answer the sender gave up on). */
  status: number;
  /** Whether the answer was actually sent (false while held, or when the sender hung up first). */
  answered: boolean;
}

/** How the receiver answers one request: a status, optionally after a delay. */
export type Answer = { status: number; delayMs?: number; headers?: Record<string, string> };

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides the answer to each request (default 200). */
  answer: (req: Received, countForPath: number) => Answer;
  /** Resolves once `predicate` holds for what arrived; rejects after `timeoutMs`. */
  waitFor(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP receiver on loopback that records every webhook request. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const perPath = new Map<string, number>();
  const sockets = new Set<import('node:net').Socket>();
  const receiver: Receiver = {
    url: '',
    received,
    answer: () => ({ status: 200 }),
    waitFor(predicate, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(received)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: condition not met in ${timeoutMs} ms; ${received.length} requests arrived`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Received = {
        path: req.url ?? '/',
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
        status: 0,
        answered: false,
      };
      const n = (perPath.get(entry.path) ?? 0) + 1;
      perPath.set(entry.path, n);
      const answer = receiver.answer(entry, n);
      entry.status = answer.status;
      received.push(entry);
      for (const w of [...waiters]) w();
      const reply = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end('ok');
        entry.answered = true;
        for (const w of [...waiters]) w();
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
