import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import { CACHE_NEUTRAL, type Queryable } from '../../db/client.js';
import { newId } from '../../ids.js';

/**
 * Emission of webhook events: the one entry point every write path calls, inside the transaction of
 * its change (the transactional outbox).
 *
 *     await db.transaction(async (tx) => {
 *       const before = await repo.get(tx, organizationId, id, true);
 *       const after = await repo.update(tx, organizationId, id, fields);
 *       await emitEvent(tx, organizationId, 'apartment.updated', toApartment(after, building), changesOf(before, after));
 *     });
 *
 * A rolled-back change therefore emits nothing, and a committed one is in the outbox before the
 * request answers. Emitting costs one indexed read when the organization has no enabled endpoint for
 * the type (nothing is written) and one more statement when it has; the HTTP delivery happens later in
 * the delivery worker (worker.ts), never in the request.
 */

export const EVENT_TYPES = [
  'inquiry.created',
  'inquiry.updated',
  'apartment.created',
  'apartment.updated',
  'estate.updated',
  'building.updated',
  'asset.deleted',
  'addon.updated',
  'navigator.updated',
  'page.updated',
  'domain.verified',
  'domain.unverified',
  'domain.removed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Who made a change: a dashboard user or an API key (the event's `actor`). */
export interface Actor {
  type: 'user' | 'apiKey';
  id: string;
}

/**
 * The actor of the writes of this asynchronous context: set around a request's handler by the API's key
 * auth (src/http/auth.ts) and by the dashboard's session (src/modules/dashboard/session.ts), so every
 * event a service emits names who did it without each service being told.
 */
const actorScope = new AsyncLocalStorage<Actor | undefined>();

/** The actor of the current context's writes, if any. */
export const currentActor = (): Actor | undefined => actorScope.getStore();

/** Runs `fn` with its events naming `actor` (undefined: none, e.g. the public inquiry form). */
export function asActor<T>(actor: Actor | undefined, fn: () => T): T {
  return actorScope.run(actor, fn);
}

/** `changes` of a `*.updated` event: the fields that changed, each with its value before and after. */
export type Changes = Record<string, { before: unknown; after: unknown }>;

export interface NewEvent {
  type: EventType;
  /** The resource as the API returns it (addon.updated: `{estateId, addon}`; navigator.updated: `{estateId, navigatorId}`; page.updated: the page settings; domain.*: the domain). */
  data: unknown;
  changes?: Changes | undefined;
}

/** NOTIFY channel that wakes delivery workers (on every instance) when an emitting transaction commits. */
export const OUTBOX_CHANNEL = 'webhook_outbox';

/**
 * In-process wake-up: on PGlite the worker's next query waits for the emitting transaction (PGlite runs
 * one at a time), so signalling before the commit is safe; on PostgreSQL the NOTIFY does the waking.
 */
export const outboxSignal = new EventEmitter();
outboxSignal.setMaxListeners(0);

/** Wakes the delivery workers of every instance when `tx` commits (a retry, a re-enabled endpoint). */
export async function wakeWorkers(tx: Queryable): Promise<void> {
  await tx.query(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);
  outboxSignal.emit('queued');
}

/**
 * Fields that move with every write or follow from another field: left out of `changes`, so a price
 * change is one field (priceCents), not three.
 */
const DERIVED_FIELDS = new Set(['updatedAt', 'priceChangeHistory', 'lastSynchronizedAt', 'organizationId', 'changeXid']);

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b as object, k) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * The `changes` of an update: every top-level field whose value differs between two versions of a
 * resource (deep comparison; key order does not matter), except the DERIVED_FIELDS. Empty when
 * nothing changed, and then the write emits no `*.updated` event.
 */
export function changesOf(before: object, after: object): Changes {
  const changes: Changes = {};
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  for (const field of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (DERIVED_FIELDS.has(field)) continue;
    if (!same(b[field] ?? null, a[field] ?? null)) changes[field] = { before: b[field] ?? null, after: a[field] ?? null };
  }
  return changes;
}

/** One event; see emitEvents. An update whose `changes` is empty emits nothing. */
export function emitEvent(tx: Queryable, organizationId: string, type: EventType, data: unknown, changes?: Changes): Promise<number> {
  return emitEvents(tx, organizationId, [{ type, data, changes }]);
}

const subscribes = (events: string[], type: string) => events.includes(type) || events.includes('*');

/**
 * Writes events to the outbox in the caller's transaction `tx`, one pending first attempt per enabled
 * endpoint of the organization subscribed to each type. Bulk writes pass all their events at once:
 * they are written by one statement. Returns the number of deliveries queued.
 */
export async function emitEvents(tx: Queryable, organizationId: string, events: NewEvent[]): Promise<number> {
  const wanted = events.filter((e) => !(e.changes && Object.keys(e.changes).length === 0));
  if (wanted.length === 0) return 0;
  const endpoints = await tx.query<{ id: string; events: string[] }>('SELECT id, events FROM webhook_endpoints WHERE organization_id = $1 AND enabled', [
    organizationId,
  ]);
  if (endpoints.length === 0) return 0;
  const timestamp = new Date().toISOString();
  const actor = actorScope.getStore();
  const rows: Array<{ id: string; type: string; body: string }> = [];
  const deliveries: Array<{ id: string; endpoint_id: string; event_id: string }> = [];
  for (const event of wanted) {
    const targets = endpoints.filter((ep) => subscribes(ep.events, event.type));
    if (targets.length === 0) continue;
    const id = newId();
    const body = {
      type: event.type,
      timestamp,
      data: event.data,
      ...(event.changes ? { changes: event.changes } : {}),
      // Every event names who made it: a dashboard user, an API key, or null (the public form, background work).
      actor: actor ? { type: actor.type, id: actor.id } : null,
    };
    rows.push({ id, type: event.type, body: JSON.stringify(body) });
    for (const ep of targets) deliveries.push({ id: newId(), endpoint_id: ep.id, event_id: id });
  }
  if (rows.length === 0) return 0;
  // Only webhook tables: no kept answer reads them, so the statement moves no write generation.
  await tx.query(
    `${CACHE_NEUTRAL} WITH ev AS (
       INSERT INTO webhook_events (id, organization_id, type, body)
       SELECT e.id, $1, e.type, e.body FROM json_to_recordset($2::json) AS e (id uuid, type text, body text)
       RETURNING id
     ), d AS (
       INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, attempt)
       SELECT d.id, $1, d.endpoint_id, d.event_id, 1 FROM json_to_recordset($3::json) AS d (id uuid, endpoint_id uuid, event_id uuid)
       WHERE d.event_id IN (SELECT id FROM ev)
       RETURNING 1
     )
     SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM (SELECT count(*) FROM d) AS n`,
    [organizationId, JSON.stringify(rows), JSON.stringify(deliveries)],
  );
  outboxSignal.emit('queued');
  return deliveries.length;
}
