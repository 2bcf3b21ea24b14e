import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { TEST_DATABASE, createTestDatabaseUrl } from '../helpers/database.js';
import { type ServerChild, childEnv, freePort, startServerChild, waitReady } from '../helpers/processes.js';
import { png } from './assets-fixtures.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};

const listen = async (handler: http.RequestListener) => {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT the server process exports its spans over OTLP/HTTP. A receiver on
 * loopback collects them: one asset registration by URL must arrive as a server span carrying the
 * request id, with the download (and on PostgreSQL the SQL statements) as its descendants.
 */
describe('OpenTelemetry traces', () => {
  const spans: OtlpSpan[] = [];
  let receiver: Awaited<ReturnType<typeof listen>>;
  let files: Awaited<ReturnType<typeof listen>>;
  let server: ServerChild;
  let dataDir: string;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    receiver = await listen((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => {
        body += d.toString();
      });
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/traces') {
          const payload = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
          for (const r of payload.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    const image = png();
    files = await listen((_req, res) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length }).end(image));
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-tracing-'));
    const env: Record<string, string | undefined> = {
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      ALLOW_PRIVATE_URLS: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      LOG_LEVEL: 'warn',
    };
    if (TEST_DATABASE === 'postgres') {
      const created = await createTestDatabaseUrl();
      dropDatabase = created.drop;
      env.DATABASE_URL = created.url;
      env.DATABASE_DIRECT_URL = created.directUrl;
    }
    server = startServerChild(childEnv(env), await freePort());
    await waitReady(server);
  }, 180_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    receiver?.server.close();
    files?.server.close();
    await dropDatabase?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('exports a request’s server span with its request id, and the download and SQL as its children', async () => {
    const org = await fetch(`${server.url}/api/v1/admin/organizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Traced' }),
    });
    const { apiKey } = (await org.json()) as { apiKey: string };
    const requestId = `trace-${crypto.randomUUID()}`;
    const res = await fetch(`${server.url}/api/v1/asset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify({ src: `${files.url}/plan.png` }),
    });
    expect(res.status).toBe(201);

    const SERVER = 2;
    const CLIENT = 3;
    let root: OtlpSpan | undefined;
    let download: OtlpSpan | undefined;
    // The batch processor exports every few seconds.
    for (let i = 0; i < 300 && !(root && download); i++) {
      root = spans.find((s) => s.kind === SERVER && attribute(s, 'request.id') === requestId);
      // PostgreSQL statements are client spans too; the download is the one with a URL.
      const url = (s: OtlpSpan) => String(attribute(s, 'url.full') ?? attribute(s, 'http.url') ?? '');
      download = root && spans.find((s) => s.kind === CLIENT && s.traceId === root!.traceId && s.parentSpanId === root!.spanId && url(s).includes('/plan.png'));
      if (!(root && download)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(root, 'server span with the request id').toBeDefined();
    expect(root!.name).toBe('POST /api/v1/asset');
    expect(attribute(root!, 'http.route')).toBe('/api/v1/asset');
    expect(root!.parentSpanId || undefined).toBeUndefined();
    expect(download, 'the asset download as a child of the server span').toBeDefined();

    if (TEST_DATABASE === 'postgres') {
      let statements: OtlpSpan[] = [];
      for (let i = 0; i < 100 && statements.length === 0; i++) {
        statements = spans.filter((s) => s.traceId === root!.traceId && (attribute(s, 'db.system.name') ?? attribute(s, 'db.system')) === 'postgresql');
        if (statements.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      const inTrace = spans.filter((s) => s.traceId === root!.traceId).map((s) => s.name);
      expect(statements.length, `spans of the trace: ${inTrace.join(', ')}`).toBeGreaterThan(0);
      const ids = new Set(spans.filter((s) => s.traceId === root!.traceId).map((s) => s.spanId));
      for (const statement of statements) expect(ids.has(statement.parentSpanId ?? '')).toBe(true);
    }
    // Health probes are not traced.
    expect(spans.some((s) => attribute(s, 'http.route') === '/health/ready' || s.name.includes('/health'))).toBe(false);
  }, 120_000);
});
