import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { BoundWork, boundWork } from '../db/bound-work.js';
import type { Database, Queryable } from '../db/client.js';
import { json, q } from '../db/query.js';
import { AppError } from '../errors.js';
import { canonical } from './canonical-json.js';
import { addRouteHook } from './route-config.js';

/** 1–255 printable ASCII characters (a UUID fits; control characters and non-ASCII do not). */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;
const KEEP_HOURS = 24;
const PURGE_EVERY_MS = 60_000;
/** Headers a replay repeats; the rest (request id, rate-limit counters) describe the new request. */
const REPLAYED_HEADERS = ['content-type', 'location'];
/**
 * Only what ran is stored: a 2xx, or the 303 that answers a form's post (the page's inquiry form). Every refusal (400/401/403/404/409/413/422/429 — validation, auth, a
 * missing parent, a conflict) is answered before the operation took effect: its work, if any, is rolled
 * back with the request's transaction, so nothing ran and the key is released. The client fixes the
 * request and retries with the same key (shared/DECISIONS.md, "Corrections"). A 5xx releases it too.
 */
const stored = (status: number) => (status >= 200 && status < 300) || status === 303;

interface Claim {
  scope: string;
  key: string;
  fingerprint: string;
  /** The request's database work: claim, work and answer share its one transaction. */
  work: BoundWork;
  settled: boolean;
}

const keyRow = (db: Queryable, scope: string, key: string) =>
  q(db)
    .selectFrom('idempotencyKeys')
    .select(['method', 'path', 'fingerprint', 'state', 'statusCode', 'responseBody', 'responseHeaders', sql<boolean>`expires_at < now()`.as('expired')])
    .where('scope', '=', scope)
    .where('idempotencyKey', '=', key);
type KeyRow = NonNullable<Awaited<ReturnType<ReturnType<typeof keyRow>['executeTakeFirst']>>>;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: Claim | null;
  }
}

/**
 * What makes two requests "the same": method, path with query, and body. A multipart upload is not
 * buffered to hash it: its media type and Content-Length stand in for the file.
 */
export function fingerprint(request: FastifyRequest): string {
  const type = String(request.headers['content-type'] ?? '');
  const form = request.body instanceof URLSearchParams ? request.body : undefined;
  const body = type.toLowerCase().startsWith('multipart/')
    ? `multipart:${type.split(';')[0]!.trim().toLowerCase()}:${request.headers['content-length'] ?? '?'}`
    : form
      ? `form:${new URLSearchParams([...form].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString()}`
      : canonical(request.body ?? null);
  return createHash('sha256').update(`${request.method}\n${request.url}\n${body}`).digest('hex');
}

function readKey(request: FastifyRequest): string | undefined {
  const fromBody = request.routeOptions.config?.idempotencyKey;
  if (fromBody) return fromBody(request);
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !KEY_PATTERN.test(raw)) {
    throw new AppError('badRequest', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
  }
  return raw;
}

export interface IdempotencyOptions {
  db: Database;
  /** Honour the `x-test-fault` header (crash tests only; see Config.testFaults). */
  faults?: boolean;
  /** Told when a keyed request does not run: replayed, a different request (422) or one still running (409). Metrics. */
  onOutcome?: ((outcome: 'replayed' | 'different_request' | 'in_progress') => void) | undefined;
}

/**
 * Idempotency-Key on routes flagged `config.idempotent`. The claim of the key, the request's database
 * work and the stored answer are one transaction: the handler runs inside `boundWork`, so its first
 * query opens the transaction with the claim (an advisory lock on the key, which a concurrent request
 * with the key fails to take: 409), every query and service transaction of the handler joins it, and
 * the answer is inserted and committed in onSend, before a byte of it is sent. A process that dies
 * before the commit leaves nothing (its transaction is rolled back with its connection), so the retry
 * runs once; after the commit the retry gets the stored answer replayed.
 */
export function installIdempotency(app: FastifyInstance, options: IdempotencyOptions): void {
  const { db } = options;
  const busy = () => {
    options.onOutcome?.('in_progress');
    return new AppError('conflict', 'A request with this Idempotency-Key is still being processed; retry later');
  };
  const misused = () => {
    options.onOutcome?.('different_request');
    return new AppError('unprocessable', 'Idempotency-Key was already used with a different request; use a new key for a new operation');
  };
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
        description: `One value per logical operation (e.g. a UUID), 1–255 printable ASCII characters. A retry with the same key and request replays the first answer (header Idempotent-Replayed: true) for ${KEEP_HOURS} h; a refused request (4xx) is not kept, so the corrected request may reuse the key; a different request with a key whose answer is kept is 422, and 409 while the first is still running.`,
      },
    };
    route.schema = { ...schema, headers } as typeof route.schema;
  });

  const purge = async (request: FastifyRequest) => {
    if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = Date.now();
    await q(db)
      .deleteFrom('idempotencyKeys')
      .where('expiresAt', '<', sql<string>`now()`)
      .execute()
      .catch((err) => request.log.warn({ err }, 'idempotency purge failed'));
  };

  const lookUp = (tx: Queryable, scope: string, key: string) => keyRow(tx, scope, key).executeTakeFirst();

  const sameRequest = (row: KeyRow, request: FastifyRequest, print: string) =>
    row.method === request.method && row.path === request.url && row.fingerprint === print;

  /** First statements of the request's transaction. */
  const claimIn = (request: FastifyRequest, scope: string, key: string, print: string) => async (tx: Queryable) => {
    // Held to COMMIT or ROLLBACK, and released by PostgreSQL when the connection dies with its process.
    const [lock] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked', [`${scope}\n${key}`]);
    if (!lock?.locked) throw busy();
    // Answered (or, by an older version, claimed) since the look-up in preHandler.
    const row = await lookUp(tx, scope, key);
    if (row && !row.expired) throw sameRequest(row, request, print) ? busy() : misused();
    if (row) await q(tx).deleteFrom('idempotencyKeys').where('scope', '=', scope).where('idempotencyKey', '=', key).execute();
  };

  const replay = (reply: FastifyReply, row: KeyRow) => {
    options.onOutcome?.('replayed');
    for (const [name, value] of Object.entries(row.responseHeaders)) reply.header(name, value);
    reply.header('idempotent-replayed', 'true');
    return reply.code(row.statusCode!).send(row.responseBody ?? '');
  };

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = readKey(request);
    if (key === undefined) return;
    await purge(request);
    const scope = request.auth ? `org:${request.auth.organizationId}` : `ip:${request.ip}`;
    const print = fingerprint(request);
    const row = await lookUp(db, scope, key);
    if (row && !row.expired) {
      if (!sameRequest(row, request, print)) throw misused();
      // Only an older version of this service committed a claim before its work: whether that work
      // committed cannot be known, so the key is never taken over; it expires with its record.
      if (row.state === 'running') throw busy();
      return replay(reply, row);
    }
    request.idempotency = { scope, key, fingerprint: print, work: new BoundWork(claimIn(request, scope, key, print)), settled: false };
  };

  /**
   * Crash tests only: cuts the request at a named point when it asks for it. `hold-after-commit` logs
   * and never answers, so the test can SIGKILL the process with answers committed but unsent.
   */
  const fault = async (request: FastifyRequest, point: 'hold-after-commit' | 'terminate-before-answer', tx?: Queryable) => {
    if (!options.faults || request.headers['x-test-fault'] !== point) return;
    if (point === 'hold-after-commit') {
      request.log.info({ fault: point }, 'test fault: answer held after commit');
      await new Promise(() => undefined);
    }
    if (db.kind === 'postgres' && tx) {
      // Another session ends the one that is about to store the answer, as an operator or a failover would.
      const [own] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await db.query('SELECT pg_terminate_backend($1)', [own!.pid]);
    } else throw new Error('test fault: the database failed before the answer was stored');
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claimed = request.idempotency;
    if (!claimed || claimed.settled) return payload;
    claimed.settled = true;
    const status = reply.statusCode;
    const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload.toString() : undefined;
    // onSend of a reply sent by the handler runs inside its bound work; the answer is stored outside it.
    return boundWork.exit(async () => {
      // A refusal, a failure or a request body the client aborted: nothing ran, nothing is kept; the retry runs.
      if (!stored(status) || body === undefined || request.raw.readableAborted) {
        await claimed.work.end();
        if (body === undefined && stored(status)) throw new Error('An idempotent answer must be a string or a buffer to be stored');
        return payload;
      }
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      const store = (tx: Queryable, ignoreConflict = false) => {
        const insert = q(tx)
          .insertInto('idempotencyKeys')
          .values({
            scope: claimed.scope,
            idempotencyKey: claimed.key,
            method: request.method,
            path: request.url,
            fingerprint: claimed.fingerprint,
            state: 'done',
            statusCode: status,
            responseBody: body,
            responseHeaders: json(headers),
            expiresAt: sql<string>`now() + make_interval(hours => ${KEEP_HOURS})`,
          });
        return (ignoreConflict ? insert.onConflict((oc) => oc.doNothing()) : insert).execute();
      };
      // The work and its answer commit together; when that fails, the error handler answers 5xx
      // instead and nothing of the request is kept.
      const committed = await claimed.work.end(async (tx) => {
        await fault(request, 'terminate-before-answer', tx);
        await store(tx);
      });
      if (!committed) await store(db, true); // no database work: only the answer to keep
      await fault(request, 'hold-after-commit');
      return payload;
    });
  };

  // A request that ends without onSend (aborted connection) keeps nothing: its transaction is rolled back.
  const settle = async (request: FastifyRequest) => {
    const claimed = request.idempotency;
    if (!claimed || claimed.settled) return;
    claimed.settled = true;
    await boundWork.exit(() => claimed.work.end());
  };

  // Route-level hooks on the creating routes only: every other request (the public reads above
  // all) pays nothing for idempotency.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    // Most calls carry no key: then the hooks call `done` at once, costing no promise (issue 14); a
    // hook that returns a promise instead is awaited by Fastify, as an async hook is.
    const keyed = route.config?.idempotencyKey !== undefined;
    addRouteHook(route, 'preHandler', (request: FastifyRequest, reply: FastifyReply, done: () => void) =>
      !keyed && request.headers['idempotency-key'] === undefined ? done() : preHandler(request, reply),
    );
    addRouteHook(route, 'onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) =>
      request.idempotency ? onSend(request, reply, payload) : done(null, payload),
    );
    addRouteHook(route, 'onResponse', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => (request.idempotency ? settle(request) : done()));
    addRouteHook(route, 'onRequestAbort', settle);
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      const claimed = request.idempotency;
      return claimed ? boundWork.run(claimed.work, () => handler.call(this, request, reply)) : handler.call(this, request, reply);
    };
  });
}
