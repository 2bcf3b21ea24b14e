import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApp, createTestApp } from '../helpers/app.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { createEstate } from '../helpers/factories.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
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
  const samples = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
    all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
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

  it('shows the webhook queue: depth by state, deliveries by outcome, the oldest due attempt’s wait (issue 25)', async () => {
    const receiver = await startReceiver();
    try {
      const before = await scrape();
      for (const state of ['due', 'scheduled', 'held']) expect(samples(before, 'webhook_queue_depth', { state })).toHaveLength(1);
      for (const outcome of ['succeeded', 'retrying', 'gave_up', 'disabled']) expect(samples(before, 'webhook_deliveries_total', { outcome })).toHaveLength(1);
      const org = await t.createOrg();
      const hook = async (path: string) => {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/webhooks',
          key: org.key,
          body: { url: `${receiver.url}${path}`, events: ['estate.updated'] },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().id as string;
      };
      const ok = await hook('/ok');
      const gone = await hook('/gone');
      receiver.answer = (r) => ({ status: r.path === '/gone' ? 410 : 204 });
      const estate = await createEstate(t, org.key);
      expect((await t.request({ method: 'PATCH', url: `/api/v1/estate/${estate.id}`, key: org.key, body: { description: 'x' } })).statusCode).toBe(200);
      const deadline = Date.now() + 20_000;
      let now = await scrape();
      while (sum(now, 'webhook_deliveries_total', { outcome: 'succeeded' }) < 1 || sum(now, 'webhook_deliveries_total', { outcome: 'disabled' }) < 1) {
        if (Date.now() > deadline) throw new Error('the deliveries were not counted');
        await new Promise((r) => setTimeout(r, 50));
        now = await scrape();
      }
      expect(sum(now, 'webhook_deliveries_total', { outcome: 'succeeded' })).toBe(1);
      expect(sum(now, 'webhook_deliveries_total', { outcome: 'disabled' })).toBe(1);
      expect(sum(now, 'webhook_queue_depth', { state: 'due' })).toBe(0);
      expect(sum(now, 'webhook_oldest_pending_age_seconds')).toBe(0);

      // Attempts waiting: one due for 90 s (a stalled queue), one retry due later, one of the disabled endpoint.
      const events = await t.db.query<{ id: string }>('SELECT id FROM webhook_events WHERE organization_id = $1 LIMIT 1', [org.id]);
      // Each is leased for an hour, as by a worker that stalled, so this app's own worker leaves them alone.
      const queue = (id: string, endpoint: string, due: string) =>
        t.db.query(
          `INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, attempt, due_at, lease_until)
           VALUES ($1, $2, $3, $4, 2, now() + $5::interval, now() + interval '1 hour')`,
          [id, org.id, endpoint, events[0]!.id, due],
        );
      await queue('01900000-0000-7000-8000-0000000000a1', ok, '-90 seconds');
      await queue('01900000-0000-7000-8000-0000000000a2', ok, '1 hour');
      await queue('01900000-0000-7000-8000-0000000000a3', gone, '-1 second');
      const waiting = await scrape();
      expect(sum(waiting, 'webhook_queue_depth', { state: 'due' })).toBe(1);
      expect(sum(waiting, 'webhook_queue_depth', { state: 'scheduled' })).toBe(1);
      expect(sum(waiting, 'webhook_queue_depth', { state: 'held' })).toBe(1);
      const age = sum(waiting, 'webhook_oldest_pending_age_seconds');
      expect(age).toBeGreaterThanOrEqual(90);
      expect(age).toBeLessThan(600);
    } finally {
      await receiver.close();
    }
  });
});
