import type { IncomingMessage } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { listenForChanges } from './db/change-listener.js';
import type { Database } from './db/client.js';
import { installAuth } from './http/auth.js';
import { installCompression } from './http/compression.js';
import { clientErrorHandler, installErrorHandlers } from './http/error-handler.js';
import { installIdempotency } from './http/idempotency.js';
import { redactingLoggerOptions } from './http/logging.js';
import { refineDocument } from './http/openapi/document.js';
import { installPublishable } from './http/publishable.js';
import { installRateLimit } from './http/rate-limit.js';
import { installRequestGuards } from './http/request-guards.js';
import { validatorCompiler } from './http/validation.js';
import { installSiteRouting } from './modules/domains/site.js';
import { registerModules } from './modules/index.js';
import { SHARED_SCHEMAS } from './modules/schemas.js';
import { webhooksRepository } from './modules/webhooks/repository.js';
import { DeliveryWorker } from './modules/webhooks/worker.js';
import { Metrics, installMetrics, meteredBlobStore } from './observability/metrics.js';
import { type Services, createServices } from './services.js';
import type { BlobStore } from './storage/blob-store.js';
import { guardedBlobStore } from './storage/guarded.js';

export interface AppDeps {
  config: Readonly<Config>;
  db: Database;
  storage: BlobStore;
  /** Pino options or false; tests pass a stream to read the log. */
  logger?: boolean | Record<string, unknown>;
  /** A logger made before the app (the server's, which has logged the start-up already); wins over `logger`. */
  loggerInstance?: FastifyBaseLogger | undefined;
  /** Prefix of the Redis rate-limit counters (default pps-rate-limit:); tests isolate runs with it. */
  rateLimitNamespace?: string | undefined;
  /**
   * 'background' (default): image variants are made after each upload and pending ones resumed at
   * start. 'on-demand': only when a variant URL is requested (tests of the resume and on-demand paths).
   */
  imageJobs?: 'background' | 'on-demand';
  /**
   * Tests only: hooks installed at the root before any route, so they see every answer (the response
   * contract check of test/helpers/response-contract.ts).
   */
  testHooks?: ((app: FastifyInstance) => void) | undefined;
}

export interface RouteEntry {
  method: string;
  url: string;
  auth: string;
  idempotent: boolean;
  /** A GET a publishable key may call (src/http/publishable.ts). */
  publishable: boolean;
  /** The key scope a partner route needs, when not the default (read for GET, write otherwise). */
  scope?: string | undefined;
  /** Left out of the OpenAPI document (a deprecated alias, the document itself). */
  hidden: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    deps: AppDeps;
    /** Every registered route with its auth mode: the table the shared tenancy suite walks. */
    routeTable: RouteEntry[];
    /** Set when METRICS_TOKEN is: the app's Prometheus registry and instruments. */
    metrics: Metrics | undefined;
  }
}

const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/** Every Fastify option, plugin and route scope; the server and every test build the app here. */
export async function buildApp(appDeps: AppDeps): Promise<FastifyInstance> {
  const { config } = appDeps;
  const metrics = config.metricsToken ? new Metrics() : undefined;
  // Every storage call has a deadline and fails as a 503/507 naming file storage (src/storage/guarded.ts).
  const storage = guardedBlobStore(appDeps.storage, config.storageTimeouts.callMs);
  const deps = { ...appDeps, storage: metrics ? meteredBlobStore(storage, metrics) : storage };
  // Host routing (src/modules/domains/site.ts) rewrites a custom hostname's URLs before the router runs.
  const routing: { rewrite?: (req: IncomingMessage) => string } = {};
  const app = Fastify({
    // Tests hand their own options (a stream to read); credentials are redacted from those alike.
    ...(deps.loggerInstance
      ? { loggerInstance: deps.loggerInstance }
      : {
          logger:
            deps.logger === false
              ? false
              : redactingLoggerOptions(config, deps.logger === undefined || deps.logger === true ? { level: config.logLevel } : deps.logger),
        }),
    bodyLimit: 1_048_576,
    trustProxy: config.trustProxy,
    requestTimeout: config.requestTimeoutMs,
    // Node checks request timeouts only this often (30 s by default), so a stalled client would
    // hold its connection up to 30 s past REQUEST_TIMEOUT_MS.
    http: { connectionsCheckingInterval: Math.min(1_000, config.requestTimeoutMs) },
    connectionTimeout: config.requestTimeoutMs * 2,
    return503OnClosing: true,
    clientErrorHandler,
    // genReqId reads X-Request-Id itself so an unsafe value is replaced, never echoed or logged.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
    ajv: { customOptions: { strict: false } },
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true },
    rewriteUrl: (req) => (routing.rewrite ? routing.rewrite(req) : (req.url ?? '/')),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const config = (route.config ?? {}) as { auth?: string; idempotent?: boolean; publishable?: boolean; scope?: string };
      routeTable.push({
        method,
        url: route.url,
        auth: config.auth ?? 'none',
        idempotent: config.idempotent === true,
        publishable: config.publishable === true,
        scope: config.scope,
        hidden: (route.schema as { hide?: boolean } | undefined)?.hide === true,
      });
    }
  });
  app.decorate('deps', deps);
  app.decorate('services', createServices(deps, app.log));
  // The job under way finishes; queued ones stay pending in the database (the server resumes them at start).
  app.addHook('onClose', () => app.services.assets.images.close());
  app.addHook('onClose', () => app.services.statistics.close());
  // The key uses being recorded end before the database closes.
  app.addHook('onClose', () => app.services.organizations.keyUse.close());
  app.decorate('metrics', metrics);
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);

  // Only with OTEL_EXPORTER_OTLP_ENDPOINT: the server entry has started the SDK (src/observability/tracing.ts).
  if (config.tracing) (await import('./observability/request-span.js')).installRequestSpans(app);
  installErrorHandlers(app);
  routing.rewrite = installSiteRouting(app, app.services.domains.directory, app.services.domains.ownHost);
  installRequestGuards(app, config);
  installAuth(app, { organizations: app.services.organizations, adminToken: config.adminToken });
  installPublishable(app, deps.db, app.services.caching);
  listenOnPostgres(app);
  // Both read request.auth, which the auth hook (onRequest) sets; both must precede the routes (onRoute).
  await installRateLimit(app, config, {
    namespace: deps.rateLimitNamespace,
    onRejected: metrics && ((budget) => metrics.rateLimitRejections.inc({ budget })),
  });
  installIdempotency(app, {
    db: deps.db,
    faults: config.testFaults,
    onOutcome: metrics && ((outcome) => metrics.idempotency.inc({ outcome })),
  });
  // After the publishable and idempotency hooks: they mask and store the identity answer.
  installCompression(app);
  if (metrics && config.metricsToken) {
    metrics.watch(deps.db, () => app.services.addons.publicCache.stats);
    metrics.watchWebhookQueue(() => webhooksRepository.queueStats(deps.db));
    installMetrics(app, metrics, config.metricsToken);
  }

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Project Publishing Service',
        version: '1.0.0',
        description: 'Estates, buildings, apartments, assets, inquiries and the four public-page add-ons of a real-estate development.',
      },
      // Named here for @fastify/swagger; refineDocument writes their full description.
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer' },
          operatorToken: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    // operationIds, named errors, headers, optional security, the upload body: src/http/openapi/document.ts.
    transformObject: (documents) => refineDocument((documents as { openapiObject: Parameters<typeof refineDocument>[0] }).openapiObject, routeTable) as never,
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) || `def-${i}` },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  deps.testHooks?.(app);
  await registerModules(app);

  // Every instance delivers webhooks (claims never overlap; see modules/webhooks/repository.ts).
  const webhookWorker = new DeliveryWorker(deps.db, config, app.log, metrics && ((outcome) => metrics.webhookDeliveries.inc({ outcome })));
  app.addHook('onReady', () => webhookWorker.start());
  app.addHook('onClose', () => webhookWorker.stop());
  // The verified hostnames in memory before the first request, and their daily re-verification.
  app.addHook('onReady', () => app.services.domains.start());
  app.addHook('onClose', async () => app.services.domains.stop());

  app.get('/api/v1/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger());
  return app;
}

/**
 * On PostgreSQL, one LISTEN connection (DATABASE_DIRECT_URL: a session, not a transaction pooler)
 * keeps this instance's caches true to other instances' writes: add-on public documents, API keys,
 * apartment documents, apartment lists, navigator documents and rendered public pages.
 * On PGlite this process is the only writer and both caches are trusted from the start.
 */
function listenOnPostgres(app: FastifyInstance): void {
  const { db, config } = app.deps;
  if (db.kind !== 'postgres' || !config.databaseDirectUrl) return;
  const url = config.databaseDirectUrl;
  let listener: { close(): Promise<void> } | undefined;
  app.addHook('onReady', async () => {
    listener = listenForChanges(url, db, app.log, [
      app.services.addons.publicCache.subscriber(),
      app.services.organizations.keyCache.subscriber(),
      ...app.services.apartments.documents.subscribers(),
      ...app.services.apartments.lists.cache.subscribers(),
      ...app.services.navigators.documents.subscribers(),
      ...app.services.pages.subscribers(),
      app.services.domains.directory.subscriber(),
    ]);
  });
  app.addHook('onClose', async () => {
    await listener?.close();
  });
}
