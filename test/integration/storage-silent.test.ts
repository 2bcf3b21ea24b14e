import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { S3BlobStore, type S3StoreOptions } from '../../src/storage/s3.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { logSink } from '../helpers/log-sink.js';
import { freePort } from '../helpers/processes.js';
import { type Driver, multipart, png, s3Driver, s3rverOptions } from './assets-fixtures.js';

/** An S3 endpoint that accepts connections, reads what it is sent, and never answers a byte. */
async function silentServer(): Promise<{ endpoint: string; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const s3Options = (endpoint: string): S3StoreOptions => ({ ...s3rverOptions(endpoint), timeoutMs: 1_000, idleTimeoutMs: 1_500 });
const TIMEOUTS = { STORAGE_TIMEOUT_MS: '1000', STORAGE_IDLE_TIMEOUT_MS: '1500' };

describe('an S3 store that accepts connections and never answers', () => {
  let t: TestApp;
  let org: TestOrg;
  let silent: Awaited<ReturnType<typeof silentServer>>;
  let working: Driver;
  const stores: S3BlobStore[] = [];
  const log = logSink();
  let storedId = '';

  beforeAll(async () => {
    silent = await silentServer();
    working = await s3Driver();
    t = await createTestApp({
      env: TIMEOUTS,
      logger: { level: 'debug', stream: log.stream },
      storage: () => {
        const store = new S3BlobStore(s3Options(silent.endpoint));
        stores.push(store);
        return store;
      },
    });
    org = await t.createOrg('Silent S3');
  });
  afterAll(async () => {
    await t?.close();
    for (const s of stores) s.close();
    await silent?.close();
    await working?.stop();
  });

  it('answers an upload 503 naming file storage within the deadline, with Retry-After, and keeps no row', async () => {
    const upload = multipart({ filename: 'a.png', type: 'image/png', data: png() });
    const started = performance.now();
    const res = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: org.key, body: upload.body, headers: upload.headers });
    const ms = performance.now() - started;
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ statusCode: 503, message: 'File storage is unavailable; retry later', error: 'Service Unavailable' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(ms).toBeLessThan(10_000); // the idle timeout is 1.5 s; the bound is generous for a busy machine
    expect(silent.connections()).toBeGreaterThan(0); // the store was reached, and said nothing
    const rows = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM assets');
    expect(rows[0]!.n).toBe(0);
  });

  it('answers readiness 503 with storage unavailable within the deadline', async () => {
    const started = performance.now();
    const ready = await t.request({ method: 'GET', url: '/health/ready' });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks).toMatchObject({ database: 'ok', storage: 'unavailable' });
  });

  it('answers a file GET 503 within the deadline when the bytes are in a store that went silent', async () => {
    // The file is stored while the store answers; then the same bucket is reached at the silent address.
    const app = await buildApp({ config: t.config, db: t.db, storage: working.make(t.dataDir), logger: false });
    const upload = multipart({ filename: 'b.png', type: 'image/png', data: png() });
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/asset/upload',
      headers: { ...upload.headers, authorization: `Bearer ${org.key}` },
      payload: upload.body,
    });
    expect(created.statusCode).toBe(201);
    await app.close();
    const { id } = created.json() as { id: string };
    storedId = id;
    const started = performance.now();
    const file = await t.request({ method: 'GET', url: `/files/${org.id}/${id}` });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(file.statusCode).toBe(503);
    expect(file.json()).toEqual({ statusCode: 503, message: 'File storage is unavailable; retry later', error: 'Service Unavailable' });
    expect(file.headers['retry-after']).toBeDefined();
  });

  it('logs a burst of refused requests as one outage (warn at its start and end), each request at debug with its id', async () => {
    log.clear();
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.request({ method: 'GET', url: `/files/${org.id}/${storedId}`, headers: { 'x-request-id': `burst-${i}` } })),
    );
    for (const [i, res] of burst.entries()) {
      expect(res.statusCode).toBe(503);
      expect(res.headers['x-request-id']).toBe(`burst-${i}`);
    }
    const refused = log.lines().filter((l) => l.msg === 'request refused: storage unavailable');
    expect(refused.map((l) => l.reqId).sort()).toEqual(burst.map((_, i) => `burst-${i}`).sort());
    // The outage may have begun before the burst (the previous test) or with it: one start line at most.
    const starts = log.lines().filter((l) => l.level === 40 && String(l.msg).startsWith('Outage: storage unavailable'));
    expect(starts.length).toBeLessThanOrEqual(1);
    if (starts[0]) expect(starts[0]).toMatchObject({ dependency: 'storage', cause: { message: expect.any(String) } });
    // It ends once 30 s pass without a refusal, or when the app closes: one line with the count.
    await t.app.close();
    const over = log.lines().filter((l) => String(l.msg).startsWith('Outage over: storage unavailable'));
    expect(over).toHaveLength(1);
    expect(over[0]!.level).toBe(40);
    expect(over[0]!.refused).toBeGreaterThanOrEqual(10);
    expect(log.lines().filter((l) => l.level >= 40)).toHaveLength(starts.length + 1);
    expect(log.lines().filter((l) => l.level >= 50)).toHaveLength(0);
  });
});

describe('an S3 store that refuses connections', () => {
  it('answers a file GET 503 naming file storage, not the database', async () => {
    const working = await s3Driver();
    const t = await createTestApp({ env: TIMEOUTS, storage: working.make });
    const refused = new S3BlobStore(s3Options(`http://127.0.0.1:${await freePort()}`));
    try {
      const org = await t.createOrg('Refused S3');
      const upload = multipart({ filename: 'c.png', type: 'image/png', data: png() });
      const created = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: org.key, body: upload.body, headers: upload.headers });
      expect(created.statusCode).toBe(201);
      const config = loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', ...TIMEOUTS });
      const app = await buildApp({ config, db: t.db, storage: refused, logger: false });
      try {
        const file = await app.inject({ method: 'GET', url: `/files/${org.id}/${(created.json() as { id: string }).id}` });
        expect(file.statusCode).toBe(503);
        expect(file.json().message).toBe('File storage is unavailable; retry later');
        const again = multipart({ filename: 'd.png', type: 'image/png', data: png() });
        const upload2 = await app.inject({
          method: 'POST',
          url: '/api/v1/asset/upload',
          headers: { ...again.headers, authorization: `Bearer ${org.key}` },
          payload: again.body,
        });
        expect(upload2.statusCode).toBe(503);
        expect(upload2.json().message).toBe('File storage is unavailable; retry later');
      } finally {
        await app.close();
      }
    } finally {
      refused.close();
      await t.close();
      await working.stop();
    }
  });
});
