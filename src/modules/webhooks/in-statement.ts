import { type RawBuilder, sql } from 'kysely';
import { BoundedMap } from '../../bounded-map.js';
import { newId } from '../../ids.js';
import { type EventType, OUTBOX_CHANNEL, currentActor, outboxSignal } from './events.js';
import { MAX_ENDPOINTS } from './schemas.js';

/**
 * The outbox of one event written by the very statement that makes the change, for the hot create
 * path (POST /apartment): no transaction, no statement of its own. Exact like emitEvents: the statement
 * reads the organization's subscribed endpoints in its own snapshot and writes the event and one
 * pending attempt per endpoint, or nothing when there is none.
 *
 * The only thing the process guesses is how many endpoints subscribe (`SubscriberHints`): the statement
 * needs one delivery id per endpoint, and the SQL that builds the event's body costs planning time
 * that an organization without endpoints should not pay. The guess is checked inside the statement:
 * the change is written only when the endpoints found are no more than the ids brought (`guard`);
 * otherwise nothing is written, the statement answers how many it found, and the caller runs it again
 * with room for every endpoint an organization may have (`InStatementEvent.retry`).
 *
 * The SQL is written over stand-ins of the values (`OutboxParams`), so a statement that contains it is
 * compiled once per shape (with or without the event's writes) and run with each event's values.
 */

/** The subscriber count last seen per organization and event type; a wrong guess costs one retried statement. */
export class SubscriberHints {
  private readonly seen: BoundedMap<string, number>;
  constructor(max = 10_000) {
    this.seen = new BoundedMap(max);
  }

  get(organizationId: string, type: EventType): number {
    return this.seen.get(`${organizationId}:${type}`) ?? 0;
  }

  set(organizationId: string, type: EventType, count: number): void {
    const key = `${organizationId}:${type}`;
    if (count === 0) this.seen.delete(key);
    else this.seen.set(key, count);
  }
}

/** The values the outbox SQL binds (or stand-ins for them while a statement is compiled). */
export interface OutboxParams {
  organizationId: string;
  type: EventType;
  /** The types an endpoint may list to receive the event: itself and `*`. */
  types: string[];
  eventId: string;
  timestamp: string;
  /** The event's `actor` as JSON text (`null` when nobody is named): see events.ts. */
  actor: string;
  deliveryIds: string[];
  /** deliveryIds.length: the most endpoints the statement may find and still write the change. */
  capacity: number;
}

/** What the statement answers about its outbox part. */
export interface OutboxResult {
  /** Enabled endpoints of the organization subscribed to the type, in the statement's snapshot. */
  subscribed: number;
  /** Attempts queued by the statement (0 when it wrote nothing, or there was no endpoint). */
  deliveries: number;
}

export class InStatementEvent {
  readonly params: OutboxParams;

  constructor(organizationId: string, type: EventType, capacity: number) {
    const deliveryIds = Array.from({ length: Math.min(capacity, MAX_ENDPOINTS) }, newId);
    const queues = deliveryIds.length > 0;
    this.params = {
      organizationId,
      type,
      types: [type, '*'],
      // Bound only by the statement that writes the event (see outboxSql's `writes`).
      eventId: queues ? newId() : '',
      timestamp: queues ? new Date().toISOString() : '',
      actor: JSON.stringify(currentActor() ?? null),
      deliveryIds,
      capacity: deliveryIds.length,
    };
  }

  /** Whether the statement must carry the event's writes (some endpoint was expected). */
  get queues(): boolean {
    return this.params.capacity > 0;
  }

  /** The same event with room for every endpoint an organization may have (after a statement found more than the hint). */
  retry(): InStatementEvent {
    return new InStatementEvent(this.params.organizationId, this.params.type, MAX_ENDPOINTS);
  }

  /** Takes the outbox columns off a result row; wakes this process's worker when attempts were queued. */
  static result(row: Record<string, unknown>): OutboxResult {
    const subscribed = Number(row['outbox.subscribed']);
    const deliveries = Number(row['outbox.deliveries']);
    for (const key of ['outbox.subscribed', 'outbox.deliveries', 'outbox.notified']) delete row[key];
    if (deliveries > 0) outboxSignal.emit('queued');
    return { subscribed, deliveries };
  }
}

/**
 * The outbox part of a statement over the values `p` (see OutboxParams); `queues` decides whether the
 * event's writes are in it (InStatementEvent.queues).
 */
export function outboxSql(p: OutboxParams, queues: boolean) {
  return {
    /** CTE `outbox_ep`: the subscribed endpoints, numbered. Put it before the change's CTEs. */
    endpoints: sql`outbox_ep AS (
      SELECT id, row_number() OVER (ORDER BY id) AS n FROM webhook_endpoints
      WHERE organization_id = ${p.organizationId} AND enabled AND events && CAST(${p.types} AS text[])
    )`,
    /** A condition for the change's own write: true when the statement can queue every delivery. */
    guard: sql<boolean>`(SELECT count(*) FROM outbox_ep) <= ${p.capacity}`,
    /**
     * CTEs `outbox_ev` and `outbox_d` writing the event whose `data` is `data`, evaluated over `from`
     * (the change's written row), and its attempts; nothing without `queues` (the guard refuses the
     * write when an endpoint appeared).
     */
    writes: (data: RawBuilder<unknown>, from: RawBuilder<unknown>): RawBuilder<unknown> =>
      queues
        ? sql`, outbox_ev AS (
            INSERT INTO webhook_events (id, organization_id, type, body)
            SELECT CAST(${p.eventId} AS uuid), ${p.organizationId}, ${p.type},
                   json_build_object('type', CAST(${p.type} AS text), 'timestamp', CAST(${p.timestamp} AS text), 'data', ${data}, 'actor', CAST(${p.actor} AS json))::text
            FROM ${from} WHERE EXISTS (SELECT 1 FROM outbox_ep)
            RETURNING id
          ), outbox_d AS (
            INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, attempt)
            SELECT (CAST(${p.deliveryIds} AS uuid[]))[e.n], ${p.organizationId}, e.id, v.id, 1 FROM outbox_ep e, outbox_ev v
            RETURNING 1
          )`
        : sql``,
    /**
     * Columns of the statement's result (`"outbox.subscribed"`, `"outbox.deliveries"`, read back by
     * InStatementEvent.result); the one that notifies the workers of every instance, at commit, when
     * attempts were queued.
     */
    columns: queues
      ? sql`(SELECT count(*) FROM outbox_ep) AS "outbox.subscribed", (SELECT count(*) FROM outbox_d) AS "outbox.deliveries",
            (SELECT count(pg_notify(${OUTBOX_CHANNEL}, '')) FROM (SELECT 1 FROM outbox_d LIMIT 1) AS x) AS "outbox.notified"`
      : sql`(SELECT count(*) FROM outbox_ep) AS "outbox.subscribed", 0 AS "outbox.deliveries"`,
  };
}
