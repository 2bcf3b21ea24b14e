import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { png } from './assets-fixtures.js';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  err?: { message?: string };
}

/** An upload whose client goes away mid-body is the client's doing, not a storage fault. */
describe('an upload the client aborts mid-body', () => {
  let t: TestApp;
  let a: TestOrg;
  let log = '';
  const lines = (text: string): LogLine[] =>
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LogLine);
  const sink = new Writable({
    write(chunk, _enc, done) {
      log += chunk.toString();
      done();
    },
  });
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ logger: { level: 'info', stream: sink } });
    a = await t.createOrg('Abort Org');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => t?.close());

  const countAssets = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM assets WHERE organization_id = $1', [a.id]))[0]!.n;

  it('is logged as a client abort at info, never as storage unavailable at error, and keeps nothing', async () => {
    const boundary = '----abortboundary';
    const head = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`),
      png(),
      Buffer.alloc(64 * 1024, 7),
    ]);
    const declared = head.length + 4 * 1024 * 1024;
    const before = await countAssets();
    const from = log.length;
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /api/v1/asset/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${a.key}\r\nIdempotency-Key: abort-1\r\n` +
            `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${declared}\r\n\r\n`,
        );
        socket.write(head, () => setTimeout(() => socket.destroy(), 200));
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    // The server notices the abort on its own schedule: wait for the request to be logged as ended.
    for (let i = 0; i < 100 && !/aborted by the client/.test(log.slice(from)); i++) await new Promise((r) => setTimeout(r, 50));
    const mine = lines(log.slice(from));
    expect(
      mine.filter((l) => l.level >= 50),
      JSON.stringify(mine),
    ).toEqual([]);
    expect(JSON.stringify(mine)).not.toMatch(/File storage is unavailable/);
    expect(
      mine.some((l) => l.level === 30 && /aborted by the client/.test(l.msg)),
      JSON.stringify(mine),
    ).toBe(true);
    expect(await countAssets()).toBe(before);
    // No verdict is kept for the key: the client's retry runs.
    expect((await t.db.query("SELECT 1 FROM idempotency_keys WHERE idempotency_key = 'abort-1'")).length).toBe(0);
  });
});
