import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createEstate } from '../helpers/factories.js';
import { logSink } from '../helpers/log-sink.js';
import { type OwnRedis, startOwnRedis } from '../helpers/redis-server.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('rate limits (in process)', () => {
  let t: TestApp;
  let a: TestOrg;
  let estateId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_KEY_MAX: '5', RATE_LIMIT_ANONYMOUS_MAX: '4', RATE_LIMIT_INQUIRY_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000' } });
    a = await t.createOrg('Limited A');
    estateId = (await createEstate(t, a.key)).id; // 1 of A's 5
  });
  afterAll(async () => t?.close());

  it('counts per key with RateLimit headers and answers 429 with Retry-After after the budget', async () => {
    const seen: Array<{ status: number; remaining: string | undefined }> = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.request({ method: 'GET', url: '/api/v1/estate', key: a.key });
      seen.push({ status: res.statusCode, remaining: res.headers['ratelimit-remaining'] as string | undefined });
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
    }
    expect(seen).toEqual([
      { status: 200, remaining: '3' },
      { status: 200, remaining: '2' },
      { status: 200, remaining: '1' },
      { status: 200, remaining: '0' },
    ]);
    const limited = await t.request({ method: 'GET', url: '/api/v1/estate', key: a.key });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(limited.json().message).toContain('Rate limit exceeded');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
  });

  it('gives every key its own budget', async () => {
    const other = await t.issueKey(a.id, ['read']);
    const res = await t.request({ method: 'GET', url: '/api/v1/estate', key: other.key });
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('4');
  });

  it('limits inquiry submissions per client IP on their own, stricter budget', async () => {
    const submit = () => t.request({ method: 'POST', url: `/api/v1/estates/${estateId}/inquiries`, body: { name: 'P', email: 'p@example.com' } });
    expect((await submit()).statusCode).toBe(201);
    const second = await submit();
    expect(second.statusCode).toBe(201);
    expect(second.headers['ratelimit-limit']).toBe('2');
    const third = await submit();
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
    // Invalid submissions are counted too: the limiter runs before validation.
    expect((await t.request({ method: 'POST', url: `/api/v1/estates/${estateId}/inquiries`, body: {} })).statusCode).toBe(429);
  });

  it('meters anonymous public reads per client IP, apart from key budgets', async () => {
    const read = () => t.request({ method: 'GET', url: `/api/v1/estates/${estateId}/gallery` });
    for (let i = 0; i < 4; i++) expect((await read()).statusCode).toBeLessThan(400);
    const limited = await read();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['ratelimit-limit']).toBe('4');
    // A client behind another address has its own budget.
    const elsewhere = await t.app.inject({ method: 'GET', url: `/api/v1/estates/${estateId}/gallery`, remoteAddress: '203.0.113.9' });
    expect(elsewhere.statusCode).toBeLessThan(400);
  });

  it('meters the public page per client IP: the page on the anonymous budget, its form on the inquiry budget', async () => {
    const form = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/p/no-such-page/inquiry',
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'name=P&email=p%40example.com',
      });
    expect((await form('203.0.113.20')).statusCode).toBe(404);
    expect((await form('203.0.113.20')).statusCode).toBe(404);
    const limited = await form('203.0.113.20');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['ratelimit-limit']).toBe('2');
    // A browser posted the form: the refusal is a page a visitor can read (no JSON), with the wait and the way back.
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(limited.headers['cache-control']).toBe('no-store');
    expect(limited.headers['content-security-policy']).toContain("default-src 'none'");
    expect(limited.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(limited.body).toMatch(/^<!doctype html><html lang="en">/);
    expect(limited.body).toMatch(/<p role="alert" id="page-notice">Too many inquiries were sent from your connection\. Please wait (\d+ seconds|1 minute)/);
    expect(limited.body).toContain('<a href="/p/no-such-page#inquiry">');
    const page = () => t.app.inject({ method: 'GET', url: '/p/no-such-page', remoteAddress: '203.0.113.21' });
    for (let i = 0; i < 4; i++) expect((await page()).statusCode).toBe(404);
    const pageLimited = await page();
    expect(pageLimited.statusCode).toBe(429);
    expect(pageLimited.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(pageLimited.body).toContain('Too many pages were requested from your connection');
    // The JSON API keeps its JSON error body.
    const api = () => t.app.inject({ method: 'GET', url: `/api/v1/estates/${estateId}/gallery`, remoteAddress: '203.0.113.22' });
    for (let i = 0; i < 4; i++) await api();
    const apiLimited = await api();
    expect(apiLimited.statusCode).toBe(429);
    expect(apiLimited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
  });

  it('does not meter health, docs and the OpenAPI document', async () => {
    for (let i = 0; i < 8; i++) {
      const res = await t.request({ method: 'GET', url: '/api/v1/openapi.json' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
    expect((await t.request({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});

describe('rate limits shared through Redis', () => {
  let t: TestApp;
  const namespace = `pps-test-${randomBytes(6).toString('hex')}:`;
  const apps: Array<Awaited<ReturnType<typeof buildApp>>> = [];

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await t?.close();
  });

  const instance = async (env: Record<string, string>) => {
    const config = loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_KEY_MAX: '6', ...env });
    const app = await buildApp({ config, db: t.db, storage: t.storage, logger: false, rateLimitNamespace: namespace });
    apps.push(app);
    await app.ready();
    return app;
  };

  it('two instances on one database and one Redis share one budget per key', async () => {
    const org = await t.createOrg('Shared');
    const first = await instance({ REDIS_URL });
    const second = await instance({ REDIS_URL });
    const get = (app: typeof first) => app.inject({ method: 'GET', url: '/api/v1/estate', headers: { authorization: `Bearer ${org.key}` } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await get(i % 2 === 0 ? first : second)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    const last = await get(second);
    expect(last.headers['ratelimit-limit']).toBe('6');
    expect(last.headers['retry-after']).toBeDefined();
  });

  it('keeps serving when Redis is unreachable, counting limits per instance, and readiness says so', async () => {
    const org = await t.createOrg('No Redis');
    const app = await instance({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_KEY_MAX: '2' });
    const get = () => app.inject({ method: 'GET', url: '/api/v1/estate', headers: { authorization: `Bearer ${org.key}` } });
    expect([(await get()).statusCode, (await get()).statusCode, (await get()).statusCode]).toEqual([200, 200, 429]);
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'degraded', checks: { database: 'ok', storage: 'ok', disk: 'ok', redis: 'degraded' } });
  });
});

describe('a Redis that stops answering (SIGSTOP: the socket stays open, nothing answers)', () => {
  let t: TestApp;
  let redis: OwnRedis;
  const log = logSink();
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    t = await createTestApp();
    redis = await startOwnRedis();
    const config = loadConfig({ DATA_DIR: t.dataDir, REDIS_URL: redis.url, RATE_LIMIT_KEY_MAX: '4' });
    app = await buildApp({ config, db: t.db, storage: t.storage, logger: { level: 'info', stream: log.stream } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await redis?.stop();
    await t?.close();
  });

  const redisLines = () => log.lines().filter((l) => l.dependency === 'redis');

  it('answers promptly, counts per instance, reports degraded readiness, logs once, and recovers after SIGCONT', async () => {
    const org = await t.createOrg('Hung Redis');
    const get = () => app.inject({ method: 'GET', url: '/api/v1/estate', headers: { authorization: `Bearer ${org.key}` } });
    const first = await get();
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-remaining']).toBe('3');
    expect((await app.inject({ method: 'GET', url: '/health/ready' })).json().checks.redis).toBe('ok');

    // Redis stays stopped until every assertion below is made: a request waiting for it would
    // never answer. The bound is generous for a busy machine; the deadline is 150 ms.
    redis.pause();
    const answers: Array<{ status: number; ms: number }> = [];
    for (let i = 0; i < 6; i++) {
      const started = performance.now();
      const res = await get();
      answers.push({ status: res.statusCode, ms: performance.now() - started });
    }
    for (const a of answers) expect(a.ms).toBeLessThan(2_000);
    // Counted in this instance's memory meanwhile: 4 allowed, then 429.
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429, 429]);
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'degraded', checks: { database: 'ok', storage: 'ok', disk: 'ok', redis: 'degraded' } });
    // Still degraded a while later (the probe's PING times out too), and only one line said so.
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await app.inject({ method: 'GET', url: '/health/ready' })).json().checks.redis).toBe('degraded');
    expect(redisLines().map((l) => [l.level, l.msg])).toEqual([[40, expect.stringMatching(/^Redis unavailable/)]]);

    redis.resume();
    const deadline = Date.now() + 10_000;
    while ((await app.inject({ method: 'GET', url: '/health/ready' })).json().checks.redis !== 'ok') {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(redisLines().map((l) => l.level)).toEqual([40, 30]);
    expect(redisLines()[1]).toMatchObject({ msg: expect.stringMatching(/^Redis answers again/), servedWithoutRedis: 6 });
    // Counting is in Redis again (this instance's own count is spent: it would answer 429). Redis holds
    // the request made before the stop and, when the stopped process had already read it, the first
    // one after, whose answer came too late.
    const again = await get();
    expect(again.statusCode).toBe(200);
    expect(['1', '2']).toContain(again.headers['ratelimit-remaining']);
  });
});
