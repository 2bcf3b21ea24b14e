import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp } from '../helpers/app.js';
import { startTestDns } from '../helpers/dns-server.js';
import { ROOT } from '../helpers/processes.js';
import { MODULE_CASES } from '../tenancy/cases/index.js';
import type { CaseRequest, World } from '../tenancy/types.js';
import { OUTSIDE_CASES } from './prism-cases.js';

/**
 * Issue 25, item 9: the contract as a document-driven tool sees it. Stoplight Prism runs as a validating
 * proxy in front of a real server; every operation of the served OpenAPI document is called through it
 * (the tenancy suite's valid request for each partner and public route, prism-cases.ts for the rest),
 * also as a publishable key, anonymously and with If-None-Match where the route caches, and any
 * violation Prism reports (request or response: status, body, headers) fails. So does an operation of
 * the document that the walk does not call: a new route needs its case.
 */
type Operation = { method: string; path: string };
type Json = Record<string, unknown>;

/** Headers a client relies on: each one sent must be declared on the answer's status in the document. */
const CONTRACT_HEADERS = [
  'etag',
  'cache-control',
  'vary',
  'x-request-id',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'idempotent-replayed',
  'link',
  'x-total-count',
  'location',
  'content-range',
  'accept-ranges',
  'content-disposition',
];

/** The header names the document declares for one operation's status (its `$ref`s followed). */
function declaredHeaders(doc: Json, op: Operation, status: number): Set<string> {
  const follow = (node: Json | undefined): Json | undefined => {
    let n = node;
    while (n && typeof n.$ref === 'string') {
      n = (n.$ref as string)
        .slice(2)
        .split('/')
        .reduce<unknown>((at, part) => (at as Json)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as Json | undefined;
    }
    return n;
  };
  const responses = ((doc.paths as Json)[op.path] as Json)[op.method.toLowerCase()] as { responses?: Json };
  const response = follow((responses.responses?.[String(status)] ?? responses.responses?.default) as Json | undefined);
  return new Set(Object.keys((response?.headers ?? {}) as Json).map((h) => h.toLowerCase()));
}
type Call = { label: string; key?: string | undefined; headers?: Record<string, string>; req: CaseRequest };

const PRISM = path.join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');

describe('the OpenAPI document, as Stoplight Prism validates it against a real server', () => {
  let w: World;
  let dir: string;
  let prism: ChildProcess | undefined;
  let prismUrl: string;
  let operations: Operation[];
  let document: Json;
  const cases: Record<string, (w: World) => CaseRequest | Promise<CaseRequest>> = {};

  beforeAll(async () => {
    const dns = await startTestDns();
    const t = await createTestApp({ env: { DNS_SERVERS: dns.server } });
    const a = await t.createOrg('Prism A');
    const b = await t.createOrg('Prism B');
    const readOnly = await t.issueKey(a.id, ['read']);
    const publishable = await t.issueKey(a.id, ['publishable']);
    w = { t, a, b, readOnlyA: readOnly.key, revokedA: readOnly.key, publishableA: publishable.key, ids: {}, dns };
    for (const m of MODULE_CASES) {
      await m.prepare?.(w);
      for (const [key, c] of Object.entries(m.routes)) cases[key] = c.request;
    }
    Object.assign(cases, OUTSIDE_CASES);
    const upstream = await t.app.listen({ port: 0, host: '127.0.0.1' });
    document = t.app.swagger() as Json;
    operations = Object.entries(document.paths as Record<string, Json>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path: p })),
    );
    dir = await mkdtemp(path.join(os.tmpdir(), 'pps-prism-'));
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    prismUrl = `http://127.0.0.1:${port}`;
    prism = spawn(process.execPath, [PRISM, 'proxy', file, upstream, '--port', String(port), '--host', '127.0.0.1', '--errors', 'false', '-v', 'error'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const collect = (d: Buffer) => {
      log += d.toString();
    };
    prism.stdout?.on('data', collect);
    prism.stderr?.on('data', collect);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (prism.exitCode !== null) throw new Error(`prism exited: ${log}`);
      const up = await fetch(`${prismUrl}/health`).then(
        () => true,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error(`prism did not start: ${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  afterAll(async () => {
    prism?.kill('SIGTERM');
    await w?.t.close();
    await w?.dns.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const keyOf = (op: Operation) => `${op.method} ${op.path.replace(/\{(\w+)\}/g, ':$1')}`;

  /** What the walk sends for one operation: the owner's call, and the cached reads' other callers. */
  const callsFor = (op: Operation): Call[] => {
    const route = w.t.app.routeTable.find((r) => `${r.method} ${r.url}` === keyOf(op));
    const owner = route?.auth === 'admin' ? ADMIN_TOKEN : route?.auth === 'none' ? undefined : w.a.key;
    const calls: Call[] = [{ label: 'owner', key: owner, req: { url: '' } }];
    if (route?.publishable) calls.push({ label: 'publishable', key: w.publishableA, req: { url: '' } });
    if (route?.auth === 'public' && op.method === 'GET') calls.push({ label: 'anonymous', req: { url: '' } });
    return calls;
  };

  const send = async (method: string, call: Call, req: CaseRequest) => {
    const headers: Record<string, string> = { ...(call.key ? { authorization: `Bearer ${call.key}` } : {}), ...req.headers, ...call.headers };
    let body: BodyInit | undefined;
    if (Buffer.isBuffer(req.body)) body = new Uint8Array(req.body);
    else if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${prismUrl}${req.url}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text };
  };

  it('Prism reports a violation when there is one (the check can fail)', async () => {
    const res = await send('PATCH', { label: 'probe', key: w.a.key, req: { url: '' } }, { url: `/api/v1/estate/${w.ids.estate}`, body: { notAField: 1 } });
    expect(res.status).toBe(422);
    expect(res.headers.get('sl-violations')).toContain('notAField');
  });

  it('GET-modify-PATCH: a body read back with its server-managed fields is valid to the document as it is to the server', async () => {
    for (const [read, write] of [
      [`/api/v1/estate/${w.ids.estate}`, `/api/v1/estate/${w.ids.estate}`],
      [`/api/v1/building/${w.ids.building}`, `/api/v1/building/${w.ids.building}`],
      [`/api/v1/apartment/${w.ids.apartment}`, `/api/v1/apartment/${w.ids.apartment}`],
    ] as const) {
      const body = (await w.t.request({ method: 'GET', url: read, key: w.a.key })).json() as Json;
      const res = await send('PATCH', { label: 'read back', key: w.a.key, req: { url: '' } }, { url: write, body: { ...body, description: 'Read back' } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('sl-violations'), write).toBeNull();
    }
  });

  it('every operation of the document answers through Prism without a violation, and the walk covers them all', async () => {
    const missing = operations.filter((op) => !cases[keyOf(op)]).map(keyOf);
    expect(missing, 'operations of the document the walk does not call (add a case)').toEqual([]);
    const violations: string[] = [];
    let calls = 0;
    for (const op of operations) {
      for (const call of callsFor(op)) {
        const req = await cases[keyOf(op)]!(w);
        const res = await send(op.method, call, req);
        calls++;
        const note = (what: string) => violations.push(`${keyOf(op)} (${call.label}, ${res.status}): ${what}`);
        const reported = res.headers.get('sl-violations');
        if (reported) note(reported);
        const undeclared = (headers: Headers, status: number) => {
          const declared = declaredHeaders(document, op, status);
          return CONTRACT_HEADERS.filter((h) => headers.has(h) && !declared.has(h));
        };
        const missingHeaders = undeclared(res.headers, res.status);
        if (missingHeaders.length > 0) note(`sends headers the document does not declare: ${missingHeaders.join(', ')}`);
        if (res.status >= 500 || (call.label === 'owner' && res.status >= 400)) note(`answered ${res.status}: ${res.text.slice(0, 300)}`);
        const etag = res.headers.get('etag');
        // A cached read again with its ETag: the 304 and its headers are validated too.
        if (op.method === 'GET' && etag && res.status === 200 && call.label !== 'owner') {
          const again = await send(op.method, { ...call, headers: { 'if-none-match': etag } }, req);
          calls++;
          if (again.status !== 304) note(`If-None-Match answered ${again.status}, not 304: ${again.text.slice(0, 400)}`);
          const again304 = again.headers.get('sl-violations');
          if (again304) note(`304: ${again304}`);
          const on304 = undeclared(again.headers, again.status);
          if (on304.length > 0) note(`${again.status} sends headers the document does not declare: ${on304.join(', ')}`);
        }
      }
    }
    expect(violations).toEqual([]);
    expect(calls).toBeGreaterThan(operations.length);
  });
});
