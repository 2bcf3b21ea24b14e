import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import { AppError } from '../errors.js';

/** 1–255 printable ASCII characters (a UUID fits; control characters and non-ASCII do not). */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;
const KEEP_HOURS = 24;
const PURGE_EVERY_MS = 60_000;
/** Headers a replay repeats; the rest (request id, rate-limit counters) describe the new request. */
const REPLAYED_HEADERS = ['content-type', 'location'];
/**
 * Answers that say "try again" rather than "this is the result": releasing the key lets the retry run.
 * Every other 4xx is stored and replayed, so a retry sees the same verdict as the first attempt.
 */
const released = (status: number) => status >= 500 || status === 409 || status === 429;

interface Claim {
  scope: string;
  key: string;
  settled: boolean;
}

interface KeyRow {
  method: string;
  path: string;
  fingerprint: string;
  state: 'running' | 'done';
  status_code: number | null;
  response_body: string | null;
  response_headers: Record<string, string>;
  expired: boolean;
  stale: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: Claim | null;
  }
}

/**
 * JSON with object keys sorted, so key order and whitespace do not make a retry "different". Below a
 * depth no schema of ours allows, plain JSON text is used, so a hostile nesting cannot exhaust the stack.
 */
function canonical(value: unknown, depth = 0): string {
  if (depth > 32) return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k], depth + 1)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * What makes two requests "the same": method, path with query, and body. A multipart upload is not
 * buffered to hash it: its media type and Content-Length stand in for the file.
 */
export function fingerprint(request: FastifyRequest): string {
  const type = String(request.headers['content-type'] ?? '');
  const body = type.toLowerCase().startsWith('multipart/')
    ? `multipart:${type.split(';')[0]!.trim().toLowerCase()}:${request.headers['content-length'] ?? '?'}`
    : canonical(request.body ?? null);
  return createHash('sha256').update(`${request.method}\n${request.url}\n${body}`).digest('hex');
}

function readKey(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !KEY_PATTERN.test(raw)) {
    throw new AppError('badRequest', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
  }
  return raw;
}

export interface IdempotencyOptions {
  db: Database;
  /** A claim still "running" after this long belongs to a request that died; a retry may take it over. */
  staleAfterMs: number;
  /** Told when a keyed request does not run: replayed, a different request (422) or one still running (409). Metrics. */
  onOutcome?: ((outcome: 'replayed' | 'different_request' | 'in_progress') => void) | undefined;
}

/**
 * Idempotency-Key on routes flagged `config.idempotent`: the first request claims the key by inserting
 * its row (the primary key lets exactly one of several concurrent requests win), the response is
 * stored when it is sent, and later requests with that key get the stored response replayed.
 */
export function installIdempotency(app: FastifyInstance, options: IdempotencyOptions): void {
  const { db } = options;
  let lastPurge = 0;
  app.decorateRequest('idempotency', null);

  // Documents the header in OpenAPI. No constraint here on purpose: readKey's check gives the clearer message.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    const schema = (route.schema ?? {}) as { headers?: { type?: string; properties?: Record<string, unknown> } };
    const headers = schema.headers ?? { type: 'object', properties: {} };
    headers.properties = {
      ...headers.properties,
      'idempotency-key': {
        type: 'string',
        description: `One value per logical operation (e.g. a UUID), 1–255 printable ASCII characters. A retry with the same key and request replays the first answer (header Idempotent-Replayed: true) for ${KEEP_HOURS} h; a different request with the key is 422, and 409 while the first is still running.`,
      },
    };
    route.schema = { ...schema, headers } as typeof route.schema;
  });

  const purge = async (request: FastifyRequest) => {
    if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = Date.now();
    await db.query('DELETE FROM idempotency_keys WHERE expires_at < now()').catch((err) => request.log.warn({ err }, 'idempotency purge failed'));
  };

  const claim = async (scope: string, key: string, request: FastifyRequest, print: string): Promise<boolean> => {
    const rows = await db.query(
      `INSERT INTO idempotency_keys (scope, idempotency_key, method, path, fingerprint, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + interval '${KEEP_HOURS} hours')
       ON CONFLICT (scope, idempotency_key) DO NOTHING RETURNING 1`,
      [scope, key, request.method, request.url, print],
    );
    return rows.length > 0;
  };

  const replay = (reply: FastifyReply, row: KeyRow) => {
    for (const [name, value] of Object.entries(row.response_headers)) reply.header(name, value);
    reply.header('idempotent-replayed', 'true');
    return reply.code(row.status_code!).send(row.response_body ?? '');
  };

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = readKey(request);
    if (key === undefined) return;
    await purge(request);
    const scope = request.auth ? `org:${request.auth.organizationId}` : `ip:${request.ip}`;
    const print = fingerprint(request);

    // Two rounds: an expired or abandoned row is removed in the first and the key claimed in the second.
    for (let round = 0; round < 2; round++) {
      if (await claim(scope, key, request, print)) {
        request.idempotency = { scope, key, settled: false };
        return;
      }
      const row = (
        await db.query<KeyRow>(
          `SELECT method, path, fingerprint, state, status_code, response_body, response_headers,
                  expires_at < now() AS expired,
                  (state = 'running' AND created_at < now() - $3 * interval '1 millisecond') AS stale
           FROM idempotency_keys WHERE scope = $1 AND idempotency_key = $2`,
          [scope, key, options.staleAfterMs],
        )
      )[0];
      if (!row) continue; // released between our insert and read: try to claim again
      if (row.expired || row.stale) {
        await db.query(
          `DELETE FROM idempotency_keys WHERE scope = $1 AND idempotency_key = $2
             AND (expires_at < now() OR (state = 'running' AND created_at < now() - $3 * interval '1 millisecond'))`,
          [scope, key, options.staleAfterMs],
        );
        continue;
      }
      if (row.method !== request.method || row.path !== request.url || row.fingerprint !== print) {
        options.onOutcome?.('different_request');
        throw new AppError('unprocessable', 'Idempotency-Key was already used with a different request; use a new key for a new operation');
      }
      if (row.state === 'running') {
        options.onOutcome?.('in_progress');
        throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed; retry later');
      }
      options.onOutcome?.('replayed');
      return replay(reply, row);
    }
    options.onOutcome?.('in_progress');
    throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed; retry later');
  };

  const release = async (request: FastifyRequest, claimed: Claim) => {
    claimed.settled = true;
    await db
      .query('DELETE FROM idempotency_keys WHERE scope = $1 AND idempotency_key = $2', [claimed.scope, claimed.key])
      .catch((err) => request.log.error({ err }, 'idempotency key release failed'));
  };

  // Stored before the answer leaves, so a client retrying right after receiving it gets the replay.
  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claimed = request.idempotency;
    if (!claimed || claimed.settled) return payload;
    const status = reply.statusCode;
    if (released(status) || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
      await release(request, claimed);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    claimed.settled = true;
    await db
      .query(
        `UPDATE idempotency_keys SET state = 'done', status_code = $3, response_body = $4, response_headers = $5
         WHERE scope = $1 AND idempotency_key = $2`,
        [claimed.scope, claimed.key, status, payload.toString(), JSON.stringify(headers)],
      )
      .catch((err) => request.log.error({ err }, 'idempotency response could not be stored'));
    return payload;
  };

  // A request that ends without onSend (aborted connection) must not hold its key until it goes stale.
  const settle = async (request: FastifyRequest) => {
    if (request.idempotency && !request.idempotency.settled) await release(request, request.idempotency);
  };

  // Route-level hooks on the creating routes only: every other request (the public reads above
  // all) pays nothing for idempotency.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    const hooks = route as unknown as Record<string, unknown>;
    const attach = (name: string, fn: unknown) => {
      const existing = hooks[name];
      hooks[name] = existing === undefined ? [fn] : [...[existing].flat(), fn];
    };
    attach('preHandler', preHandler);
    attach('onSend', onSend);
    attach('onResponse', settle);
    attach('onRequestAbort', settle);
  });
}
