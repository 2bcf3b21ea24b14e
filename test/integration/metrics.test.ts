import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApp, createTestApp } from '../helpers/app.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { createEstate } from '../helpers/factories.js';
import { multipart, png } from './assets-fixtures.js';

const TOKEN = 'metrics-token-0123456789abcdef';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format, enough of it for these checks: one sample per non-comment line. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`unparsable metrics line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('GET /metrics', () => {
  let t: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN, RATE_LIMIT_INQUIRY_MAX: '1', RATE_LIMIT_ANONYMOUS_MAX: '1000' } });
    off = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await off?.close();
  });

  const scrape = async () => {
    const res = await t.request({ method: 'GET', url: '/metrics', key: TOKEN });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parse(res.body);
  };
  const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);

  it('does not exist without METRICS_TOKEN, and wants the token when it is set', async () => {
    expect((await off.request({ method: 'GET', url: '/metrics', key: TOKEN })).statusCode).toBe(404);
    const none = await t.request({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    expect((await t.request({ method: 'GET', url: '/metrics', key: `${TOKEN}x` })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/metrics', key: ADMIN_TOKEN })).statusCode).toBe(401);
  });

  it('is neither rate limited nor in the OpenAPI document', async () => {
    const res = await t.request({ method: 'GET', url: '/metrics', key: TOKEN });
    expect(res.headers['ratelimit-limit']).toBeUndefined();
    const openapi = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths)).not.toContain('/metrics');
  });

  it('counts requests by route pattern, the database, the public cache, limits, idempotency and uploads, with no id in any label', async () => {
    const org = await t.createOrg();
    const estate = await createEstate(t, org.key);
    for (let i = 0; i < 3; i++) expect((await t.request({ method: 'GET', url: `/api/v1/estate/${estate.id}`, key: org.key })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/v1/estate/${crypto.randomUUID()}`, key: org.key })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/no/such/${crypto.randomUUID()}` })).statusCode).toBe(404);

    // Public add-on reads: a miss, then a hit; a write invalidates.
    const gallery = `/api/v1/estates/${estate.id}/gallery`;
    expect((await t.request({ method: 'GET', url: gallery })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: gallery })).statusCode).toBe(200);
    expect((await t.request({ method: 'PUT', url: gallery, key: org.key, body: { enabled: true } })).statusCode).toBe(200);

    // Idempotency: a replay and a different request under the same key.
    const idem = { 'idempotency-key': `metrics-${crypto.randomUUID()}` };
    const body = { name: `Idempotent ${crypto.randomUUID()}` };
    expect((await t.request({ method: 'POST', url: '/api/v1/estate', key: org.key, body, headers: idem })).statusCode).toBe(201);
    const replay = await t.request({ method: 'POST', url: '/api/v1/estate', key: org.key, body, headers: idem });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await t.request({ method: 'POST', url: '/api/v1/estate', key: org.key, body: { name: 'Other' }, headers: idem })).statusCode).toBe(422);

    // The inquiry budget is 1 per window here: the second submission is refused.
    const inquiry = { name: 'Prospect', email: 'prospect@example.com' };
    expect((await t.request({ method: 'POST', url: `/api/v1/estates/${estate.id}/inquiries`, body: inquiry })).statusCode).toBe(201);
    expect((await t.request({ method: 'POST', url: `/api/v1/estates/${estate.id}/inquiries`, body: inquiry })).statusCode).toBe(429);

    const image = png();
    const upload = multipart({ filename: 'plan.png', type: 'image/png', data: image });
    const uploaded = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: org.key, body: upload.body, headers: upload.headers });
    expect(uploaded.statusCode).toBe(201);

    const samples = await scrape();
    const estateRoute = { method: 'GET', route: '/api/v1/estate/:id' };
    expect(sum(samples, 'http_requests_total', { ...estateRoute, status_class: '2xx' })).toBe(3);
    expect(sum(samples, 'http_requests_total', { ...estateRoute, status_class: '4xx' })).toBe(1);
    expect(sum(samples, 'http_request_duration_seconds_count', { ...estateRoute, status_class: '2xx' })).toBe(3);
    expect(sum(samples, 'http_request_duration_seconds_bucket', { ...estateRoute, status_class: '2xx', le: '+Inf' })).toBe(3);
    expect(sum(samples, 'http_requests_total', { route: 'unmatched', status_class: '4xx' })).toBe(1);

    expect(sum(samples, 'db_query_duration_seconds_count', { operation: 'select', outcome: 'ok' })).toBeGreaterThan(0);
    expect(sum(samples, 'db_query_duration_seconds_count', { operation: 'insert', outcome: 'ok' })).toBeGreaterThan(0);
    if (TEST_DATABASE === 'postgres') {
      expect(sum(samples, 'db_pool_connections', { state: 'max' })).toBeGreaterThan(0);
      expect(samples.some((s) => s.name === 'db_pool_connections' && s.labels.state === 'in_use')).toBe(true);
    } else {
      expect(samples.some((s) => s.name === 'db_pool_connections')).toBe(false);
    }

    expect(sum(samples, 'public_read_cache_requests_total', { result: 'miss' })).toBe(1);
    expect(sum(samples, 'public_read_cache_requests_total', { result: 'hit' })).toBe(1);
    expect(sum(samples, 'public_read_cache_invalidations_total')).toBeGreaterThanOrEqual(1);
    expect(sum(samples, 'rate_limit_rejections_total', { budget: 'inquiry' })).toBe(1);
    expect(sum(samples, 'idempotency_requests_total', { outcome: 'replayed' })).toBe(1);
    expect(sum(samples, 'idempotency_requests_total', { outcome: 'different_request' })).toBe(1);
    expect(sum(samples, 'assets_created_total', { source: 'upload' })).toBe(1);
    expect(sum(samples, 'storage_bytes_written_total')).toBe(image.length);

    // Default process metrics: event-loop lag, heap, GC.
    for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'process_cpu_seconds_total']) {
      expect(samples.some((s) => s.name === name)).toBe(true);
    }

    // No label anywhere holds an id (the requests above used several) or a raw URL.
    for (const sample of samples) {
      for (const value of Object.values(sample.labels)) {
        expect(value, `${sample.name} ${JSON.stringify(sample.labels)}`).not.toMatch(UUID);
      }
      if (sample.labels.route !== undefined && sample.labels.route !== 'unmatched') expect(sample.labels.route).toMatch(/^\//);
    }
    expect(samples.filter((s) => s.labels.route?.includes('/no/such'))).toEqual([]);

    // Counters only grow, and a scrape counts cache reads once.
    const again = await scrape();
    expect(sum(again, 'public_read_cache_requests_total', { result: 'hit' })).toBe(1);
    expect(sum(again, 'http_requests_total', { route: '/metrics' })).toBeGreaterThanOrEqual(1);
  });
});
