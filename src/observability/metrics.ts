import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { type Database, observeQueries, poolStats } from '../db/client.js';
import { AppError } from '../errors.js';
import { safeEqual } from '../http/auth.js';
import type { BlobStore } from '../storage/blob-store.js';

/**
 * Prometheus metrics of one app, in a registry of its own (tests build many apps in one process).
 * Created only when METRICS_TOKEN is set; every call site takes `Metrics | undefined`, so a service
 * without a token pays nothing.
 *
 * Labels hold only bounded values: route patterns (`/api/v1/estate/:id`, never the URL), status
 * classes, fixed enumerations. Never an id, a key or a client address.
 *
 * State worth watching is read at scrape time by a Gauge's `collect()` (the pool, the webhook queue);
 * events are counted as they happen (requests, webhook deliveries).
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly dbQueryDuration = new Histogram({
    name: 'db_query_duration_seconds',
    help: 'Database statement latency, by statement kind and outcome',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [this.registry],
  });

  readonly rateLimitRejections = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429, by budget (key, anonymous, inquiry)',
    labelNames: ['budget'] as const,
    registers: [this.registry],
  });

  readonly idempotency = new Counter({
    name: 'idempotency_requests_total',
    help: 'Requests with an Idempotency-Key that did not run: replayed, or refused as a different request (422) or still in progress (409)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly assetsStored = new Counter({
    name: 'assets_created_total',
    help: 'Assets created, by how the bytes arrived (upload, url)',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  readonly bytesStored = new Counter({
    name: 'storage_bytes_written_total',
    help: 'Bytes written to the file store (disk or S3)',
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook attempts this instance sent, by outcome: succeeded, retrying (failed, another attempt queued), gave_up (the last attempt failed), disabled (the endpoint was disabled: 410 or 3 days failing)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    // Every outcome from 0, so a rate() or an alert has a series before the first delivery.
    for (const outcome of ['succeeded', 'retrying', 'gave_up', 'disabled']) this.webhookDeliveries.inc({ outcome }, 0);
  }

  /**
   * The webhook outbox, read from the database at scrape time: the same values on every instance
   * (aggregate with max, not sum). A scrape whose query fails reports nothing for these series.
   */
  watchWebhookQueue(stats: () => Promise<{ due: number; scheduled: number; held: number; oldestDueSeconds: number }>): void {
    const read = () => stats().catch(() => undefined);
    new Gauge({
      name: 'webhook_queue_depth',
      help: 'Pending webhook attempts of every organization, by state: due (to be sent now), scheduled (retries waiting for their time), held (their endpoint is disabled)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        const s = await read();
        if (!s) return;
        this.set({ state: 'due' }, s.due);
        this.set({ state: 'scheduled' }, s.scheduled);
        this.set({ state: 'held' }, s.held);
      },
    });
    new Gauge({
      name: 'webhook_oldest_pending_age_seconds',
      help: 'How long the oldest due webhook attempt has waited since it fell due (0 when none is due): the delivery lag',
      registers: [this.registry],
      async collect() {
        const s = await read();
        if (s) this.set(s.oldestDueSeconds);
      },
    });
  }

  /** Pool gauges and the public document cache's counters, read at scrape time. */
  watch(db: Database, cache: () => PublicCacheStats): void {
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections by state (in_use, idle, waiting requests, max); absent on the embedded database',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const stats = poolStats(db);
        if (!stats) return;
        this.set({ state: 'in_use' }, stats.total - stats.idle);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
        this.set({ state: 'max' }, stats.max);
      },
    });
    // The cache counts in plain numbers (no metrics dependency on the read path); scrapes add what is new.
    const reported: PublicCacheStats = { hits: 0, misses: 0, invalidations: 0 };
    const delta = (name: keyof PublicCacheStats) => {
      const now = cache()[name];
      const added = Math.max(0, now - reported[name]);
      reported[name] = now;
      return added;
    };
    new Counter({
      name: 'public_read_cache_requests_total',
      help: 'Anonymous add-on reads answered from the in-process document cache (hit) or built from the database (miss)',
      labelNames: ['result'] as const,
      registers: [this.registry],
      collect() {
        this.inc({ result: 'hit' }, delta('hits'));
        this.inc({ result: 'miss' }, delta('misses'));
      },
    });
    new Counter({
      name: 'public_read_cache_invalidations_total',
      help: 'Cached public add-on documents dropped because the add-on changed (on this instance or, by notification, another)',
      registers: [this.registry],
      collect() {
        this.inc(delta('invalidations'));
      },
    });
  }
}

export interface PublicCacheStats {
  hits: number;
  misses: number;
  invalidations: number;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** First keyword of a statement: select, insert, update, delete, or other (BEGIN, DDL, LISTEN…). */
export function operationOf(sql: string): string {
  const word = /^\s*(?:with\b[\s\S]*?\)\s*)?(\w+)/i.exec(sql)?.[1]?.toLowerCase();
  return word === 'select' || word === 'insert' || word === 'update' || word === 'delete' ? word : 'other';
}

/** Counts bytes each successful put stored; everything else goes to the store unchanged. */
export function meteredBlobStore(store: BlobStore, metrics: Metrics): BlobStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property !== 'put') {
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (...args: Parameters<BlobStore['put']>) => {
        const stat = await target.put(...args);
        metrics.bytesStored.inc(stat.size);
        return stat;
      };
    },
  });
}

const ASSET_ROUTES: Record<string, string> = { '/api/v1/asset/upload': 'upload', '/api/v1/asset': 'url' };

/**
 * GET /metrics behind `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise), not rate limited
 * (auth mode none), hidden from the OpenAPI document; plus the hooks that feed the request series.
 */
export function installMetrics(app: FastifyInstance, metrics: Metrics, token: string): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = {
      method: METHODS.has(request.method) ? request.method : 'other',
      route,
      status_class: statusClass(reply.statusCode),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    if (request.method === 'POST' && reply.statusCode === 201 && ASSET_ROUTES[route]) {
      metrics.assetsStored.inc({ source: ASSET_ROUTES[route] });
    }
  });

  observeQueries(app.deps.db, (sql, seconds, failed) => {
    metrics.dbQueryDuration.observe({ operation: operationOf(sql), outcome: failed ? 'error' : 'ok' }, seconds);
  });
  app.addHook('onClose', async () => observeQueries(app.deps.db, undefined));

  app.get('/metrics', { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1] || !safeEqual(match[1], token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError('unauthorized', 'Missing or invalid metrics token');
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
