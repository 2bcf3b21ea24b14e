import { register } from 'node:module';

export interface Tracing {
  /** Exports the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry traces over OTLP/HTTP (JSON) to `${endpoint}/v1/traces`: HTTP server spans, outgoing
 * HTTP requests (asset downloads by URL) and PostgreSQL statements (node-postgres; the embedded PGlite
 * has no driver to instrument). Called by the server entry only when OTEL_EXPORTER_OTLP_ENDPOINT is set,
 * before the modules that import `node:http` and `pg` are loaded, so the instrumentations can wrap them;
 * without the variable none of this module's imports is ever loaded.
 */
export async function startTracing(options: { endpoint: string; serviceName: string }): Promise<Tracing> {
  // The service is ESM: modules it imports are wrapped through this loader hook (import-in-the-middle).
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { registerInstrumentations },
    { HttpInstrumentation },
    { PgInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces` }))],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Liveness and readiness probes every few seconds would drown the traces that matter.
        ignoreIncomingRequestHook: (request) => request.url === '/health' || request.url === '/health/ready' || request.url === '/metrics',
      }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  return { shutdown: () => provider.shutdown() };
}
