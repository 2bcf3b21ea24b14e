import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createEstate } from '../helpers/factories.js';

/** What a reviewer checks first: headers, CORS defaults, body limits and secrets kept out of logs. */
describe('security behaviour', () => {
  let t: TestApp;
  let a: TestOrg;
  let log = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      log += chunk.toString();
      done();
    },
  });

  beforeAll(async () => {
    t = await createTestApp({ logger: { level: 'debug', stream: sink } });
    a = await t.createOrg('Secure Org');
  });
  afterAll(async () => t?.close());

  it('sends no X-Powered-By and sets nosniff, frame and referrer headers', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/estate', key: a.key });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const given = await t.request({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const unsafe = await t.request({ method: 'GET', url: '/health', headers: { 'x-request-id': 'a b\u00e9<script>' } });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the partner surface closed to other origins by default', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/estate', key: a.key, headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.request({
      method: 'OPTIONS',
      url: '/api/v1/estate',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('opens public reads to any origin', async () => {
    const res = await t.request({ method: 'GET', url: '/health', headers: { origin: 'https://viewer.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const preflight = await t.request({
      method: 'OPTIONS',
      url: '/api/v1/estates/x/gallery',
      headers: { origin: 'https://viewer.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });

  it('allows configured origins on the partner surface', async () => {
    const t2 = await createTestApp({ env: { CORS_ORIGINS: 'https://dashboard.example' } });
    try {
      const org = await t2.createOrg();
      const res = await t2.request({ method: 'GET', url: '/api/v1/estate', key: org.key, headers: { origin: 'https://dashboard.example' } });
      expect(res.headers['access-control-allow-origin']).toBe('https://dashboard.example');
    } finally {
      await t2.close();
    }
  });

  it('refuses a JSON body over 1 MB with 413 in the error shape', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/estate', key: a.key, body: { name: 'big', description: 'x'.repeat(1_100_000) } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ statusCode: 413, message: expect.any(String), error: 'Payload Too Large' });
  });

  it('rejects prototype-pollution keys without polluting anything', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/estate', key: a.key, body: '{"name":"P","__proto__":{"polluted":true}}' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never writes API keys or the operator token to the log', async () => {
    await createEstate(t, a.key);
    await t.request({ method: 'GET', url: '/api/v1/estate/nope', key: a.key });
    await t.request({ method: 'GET', url: '/api/v1/estate', key: 'epk_not-a-real-key-but-secret-looking' });
    await t.request({ method: 'GET', url: '/api/v1/admin/organizations', key: ADMIN_TOKEN });
    const issued = await t.issueKey(a.id, ['read']);
    await t.request({ method: 'GET', url: '/api/v1/estate', key: issued.key });
    expect(log.length).toBeGreaterThan(0);
    expect(log).toContain('reqId');
    for (const secret of [a.key, issued.key, ADMIN_TOKEN, 'epk_not-a-real-key-but-secret-looking']) {
      expect(log.includes(secret), 'a secret reached the log').toBe(false);
    }
    // The key's stored form is a hash: the secret itself is nowhere in the database either.
    const rows = await t.db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys');
    expect(rows.some((r) => r.key_hash === a.key)).toBe(false);
  });

  it('answers a wrong operator token of any length with 401', async () => {
    for (const token of ['x', ADMIN_TOKEN.slice(0, -1), `${ADMIN_TOKEN}x`, 'y'.repeat(500)]) {
      const res = await t.request({ method: 'GET', url: '/api/v1/admin/organizations', key: token });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('request timeouts', () => {
  it('closes a connection whose request body never completes (slow client)', async () => {
    const net = await import('node:net');
    const t = await createTestApp({ env: { REQUEST_TIMEOUT_MS: '1000' } });
    try {
      const org = await t.createOrg();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (d) => {
        received += d.toString();
      });
      // An authenticated request whose headers announce a body that never comes.
      socket.write(
        `POST /api/v1/estate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
      );
      const closed = await new Promise<boolean>((resolve) => {
        socket.on('close', () => resolve(true));
        setTimeout(() => resolve(false), 15_000).unref();
      });
      if (!closed) socket.destroy();
      expect(closed, 'the server kept the stalled connection open').toBe(true);
      // Node answers 408 when it can; once the request reached the app it just closes the socket.
      expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
    } finally {
      await t.close();
    }
  });
});
