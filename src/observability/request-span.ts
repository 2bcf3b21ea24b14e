import { trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';

/**
 * Names the HTTP server span of each request after its route pattern and gives it the request id
 * (the X-Request-Id echoed to the client and written in every log line), so a trace and its logs join.
 */
export function installRequestSpans(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const span = trace.getActiveSpan();
    if (!span) return;
    span.setAttribute('request.id', request.id);
    const route = request.routeOptions.url;
    if (route) {
      span.setAttribute('http.route', route);
      span.updateName(`${request.method} ${route}`);
    }
  });
}
