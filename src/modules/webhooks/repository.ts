import { type Insertable, type Selectable, sql } from 'kysely';
import { CACHE_NEUTRAL, type Queryable } from '../../db/client.js';
import { q, updateOwned } from '../../db/query.js';
import type { WebhookDeliveries, WebhookEndpoints } from '../../db/schema.js';

export type EndpointRow = Selectable<WebhookEndpoints>;
export type DeliveryRow = Selectable<WebhookDeliveries> & { eventType: string };

/** A delivery the worker claimed, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  organizationId: string;
  endpointId: string;
  eventId: string;
  attempt: number;
  body: string;
  url: string;
  secret: string;
  /** Rotated-out secrets still within their 24 hours, newest first (sealed). */
  retiredSecrets: string[];
  /** The endpoint's failing_since when claimed: a success need not clear what is not set. */
  failingSince: string | null;
}

export const webhooksRepository = {
  list(db: Queryable, organizationId: string): Promise<EndpointRow[]> {
    return q(db).selectFrom('webhookEndpoints').selectAll().where('organizationId', '=', organizationId).orderBy('createdAt').orderBy('id').execute();
  },

  /** One endpoint; `lock` holds its row to the end of the transaction (a rotation). */
  get(db: Queryable, organizationId: string, id: string, lock = false): Promise<EndpointRow | undefined> {
    const query = q(db).selectFrom('webhookEndpoints').selectAll().where('organizationId', '=', organizationId).where('id', '=', id);
    return (lock ? query.forUpdate() : query).executeTakeFirst();
  },

  /** Rotated-out secrets of an endpoint still signing (expired rows are removed here, as rotations come). */
  async countRetiredSecrets(db: Queryable, organizationId: string, endpointId: string): Promise<number> {
    await q(db)
      .deleteFrom('webhookRetiredSecrets')
      .where('organizationId', '=', organizationId)
      .where('endpointId', '=', endpointId)
      .where('expiresAt', '<=', sql<string>`now()`)
      .execute();
    const row = await q(db)
      .selectFrom('webhookRetiredSecrets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organizationId', '=', organizationId)
      .where('endpointId', '=', endpointId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async firstRetiredExpiry(db: Queryable, organizationId: string, endpointId: string): Promise<string | undefined> {
    const row = await q(db)
      .selectFrom('webhookRetiredSecrets')
      .select((eb) => eb.fn.min('expiresAt').as('at'))
      .where('organizationId', '=', organizationId)
      .where('endpointId', '=', endpointId)
      .executeTakeFirst();
    return row?.at ?? undefined;
  },

  /** Keeps a rotated-out (sealed) secret signing for `hours`. */
  async retireSecret(db: Queryable, organizationId: string, endpointId: string, sealed: string, hours: number): Promise<void> {
    await q(db)
      .insertInto('webhookRetiredSecrets')
      .values({ organizationId, endpointId, secret: sealed, expiresAt: sql<string>`now() + make_interval(hours => ${hours})` })
      .execute();
  },

  /** Counts the organization's endpoints with its row locked, so two creates cannot both pass the limit. */
  async countLocked(db: Queryable, organizationId: string): Promise<number> {
    await q(db).selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute();
    const row = await q(db)
      .selectFrom('webhookEndpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organizationId', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  insert(db: Queryable, row: Insertable<WebhookEndpoints>): Promise<EndpointRow> {
    return q(db).insertInto('webhookEndpoints').values(row).returningAll().executeTakeFirstOrThrow();
  },

  update(db: Queryable, organizationId: string, id: string, values: Partial<Insertable<WebhookEndpoints>>): Promise<EndpointRow | undefined> {
    return updateOwned(db, 'webhookEndpoints', organizationId, id, values);
  },

  async delete(db: Queryable, organizationId: string, id: string): Promise<boolean> {
    const rows = await q(db).deleteFrom('webhookEndpoints').where('organizationId', '=', organizationId).where('id', '=', id).returning('id').execute();
    return rows.length > 0;
  },

  /** Attempts of one endpoint, newest first, after the (createdAt, id) of the cursor when given. */
  deliveries(db: Queryable, organizationId: string, endpointId: string, limit: number, after?: { createdAt: string; id: string }): Promise<DeliveryRow[]> {
    let query = q(db)
      .selectFrom('webhookDeliveries as d')
      .innerJoin('webhookEvents as e', 'e.id', 'd.eventId')
      .selectAll('d')
      .select('e.type as eventType')
      .where('d.organizationId', '=', organizationId)
      .where('d.endpointId', '=', endpointId);
    if (after) query = query.where(sql<boolean>`(d.created_at, d.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
    return query.orderBy('d.createdAt', 'desc').orderBy('d.id', 'desc').limit(limit).execute();
  },

  getDelivery(db: Queryable, organizationId: string, endpointId: string, id: string): Promise<DeliveryRow | undefined> {
    return q(db)
      .selectFrom('webhookDeliveries as d')
      .innerJoin('webhookEvents as e', 'e.id', 'd.eventId')
      .selectAll('d')
      .select('e.type as eventType')
      .where('d.organizationId', '=', organizationId)
      .where('d.endpointId', '=', endpointId)
      .where('d.id', '=', id)
      .executeTakeFirst();
  },

  /** A new pending attempt of an event to an endpoint, numbered after its latest one, due at `dueInMs`. */
  async queueAttempt(db: Queryable, row: { id: string; organizationId: string; endpointId: string; eventId: string; dueInMs: number }): Promise<DeliveryRow> {
    const inserted = await q(db)
      .insertInto('webhookDeliveries')
      .columns(['id', 'organizationId', 'endpointId', 'eventId', 'attempt', 'dueAt'])
      .expression((eb) =>
        eb
          .selectFrom('webhookDeliveries')
          .select([
            sql.val(row.id).as('id'),
            sql.val(row.organizationId).as('organizationId'),
            sql.val(row.endpointId).as('endpointId'),
            sql.val(row.eventId).as('eventId'),
            sql<number>`coalesce(max(attempt), 0) + 1`.as('attempt'),
            sql<string>`now() + make_interval(secs => ${row.dueInMs / 1000})`.as('dueAt'),
          ])
          .where('organizationId', '=', row.organizationId)
          .where('endpointId', '=', row.endpointId)
          .where('eventId', '=', row.eventId),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    const type = await q(db).selectFrom('webhookEvents').select('type').where('id', '=', row.eventId).executeTakeFirstOrThrow();
    return { ...inserted, eventType: type.type };
  },

  /**
   * The queue as an operator watches it (GET /metrics), over every organization: pending attempts due
   * now, scheduled for later (retries) and held by a disabled endpoint, and how long the oldest due one
   * has waited since it fell due (0 when none). One statement on the pending partial index.
   */
  async queueStats(db: Queryable): Promise<{ due: number; scheduled: number; held: number; oldestDueSeconds: number }> {
    const [row] = await db.query<{ due: string; scheduled: string; held: string; oldest: string | null }>(
      `SELECT count(*) FILTER (WHERE ep.enabled AND d.due_at <= now())::text AS due,
              count(*) FILTER (WHERE ep.enabled AND d.due_at > now())::text AS scheduled,
              count(*) FILTER (WHERE NOT ep.enabled)::text AS held,
              extract(epoch FROM now() - min(d.due_at) FILTER (WHERE ep.enabled AND d.due_at <= now()))::text AS oldest
       FROM webhook_deliveries d JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
       WHERE d.status = 'pending'`,
    );
    return {
      due: Number(row?.due ?? 0),
      scheduled: Number(row?.scheduled ?? 0),
      held: Number(row?.held ?? 0),
      oldestDueSeconds: Math.max(0, Number(row?.oldest ?? 0)),
    };
  },

  /**
   * Claims up to `limit` due attempts for `worker`: a lease of `leaseMs` on each. FOR UPDATE SKIP
   * LOCKED makes concurrent claims (other instances) take disjoint rows, and a row leased by a live
   * worker is not due for anyone else until its lease ends (a dead worker's lease simply expires).
   */
  async claim(db: Queryable, worker: string, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const rows = await db.query<Record<string, unknown>>(
      `${CACHE_NEUTRAL} UPDATE webhook_deliveries d SET lease_until = now() + make_interval(secs => $3), leased_by = $1
       FROM webhook_events e, webhook_endpoints ep
       WHERE d.id IN (
           SELECT x.id FROM webhook_deliveries x JOIN webhook_endpoints xe ON xe.id = x.endpoint_id AND xe.enabled
           WHERE x.status = 'pending' AND x.due_at <= now() AND (x.lease_until IS NULL OR x.lease_until < now())
           ORDER BY x.due_at LIMIT $2
           FOR UPDATE OF x SKIP LOCKED)
         AND e.id = d.event_id AND ep.id = d.endpoint_id
       RETURNING d.id, d.organization_id, d.endpoint_id, d.event_id, d.attempt, e.body, ep.url, ep.secret,
         ARRAY(SELECT r.secret FROM webhook_retired_secrets r
               WHERE r.organization_id = ep.organization_id AND r.endpoint_id = ep.id AND r.expires_at > now()
               ORDER BY r.expires_at DESC) AS retired_secrets,
         ep.failing_since`,
      [worker, limit, leaseMs / 1000],
    );
    return rows.map((r) => ({
      id: r.id as string,
      organizationId: r.organization_id as string,
      endpointId: r.endpoint_id as string,
      eventId: r.event_id as string,
      attempt: r.attempt as number,
      body: r.body as string,
      url: r.url as string,
      secret: r.secret as string,
      retiredSecrets: (r.retired_secrets as string[] | null) ?? [],
      failingSince: r.failing_since as string | null,
    }));
  },

  /**
   * When the next unleased attempt of an enabled endpoint falls due (null: none). Attempts in flight
   * (leased) are not counted, so they never make the worker spin; an expired lease is found by the poll.
   * Reads the head of the pending index only.
   */
  async nextDue(db: Queryable): Promise<string | null> {
    const [row] = await db.query<{ due_at: string }>(
      `SELECT d.due_at FROM webhook_deliveries d JOIN webhook_endpoints ep ON ep.id = d.endpoint_id AND ep.enabled
       WHERE d.status = 'pending' AND d.lease_until IS NULL ORDER BY d.due_at LIMIT 1`,
    );
    return row?.due_at ?? null;
  },

  /**
   * Records the outcome of a leased attempt; false when the lease was lost (it expired and another
   * worker took the attempt), and then nothing is written.
   */
  async finish(
    db: Queryable,
    worker: string,
    organizationId: string,
    id: string,
    outcome: { status: 'succeeded' | 'failed'; responseStatus: number | null; error: string | null; durationMs: number },
  ): Promise<boolean> {
    const rows = await q(db)
      .updateTable('webhookDeliveries')
      // leasedBy stays: which instance sent the attempt.
      .set({ ...outcome, leaseUntil: null })
      .where('organizationId', '=', organizationId)
      .where('id', '=', id)
      .where('leasedBy', '=', worker)
      .where('status', '=', 'pending')
      .returning('id')
      .execute();
    return rows.length > 0;
  },

  /** Records many successful attempts in one statement (the worker batches them); leases lost are skipped. */
  async finishSucceeded(db: Queryable, worker: string, done: Array<{ id: string; organizationId: string; responseStatus: number; durationMs: number }>) {
    await db.query(
      `UPDATE webhook_deliveries d
       SET status = 'succeeded', response_status = v.response_status, duration_ms = v.duration_ms, error = NULL, lease_until = NULL
       FROM json_to_recordset($2::json) AS v (id uuid, organization_id uuid, response_status integer, duration_ms integer)
       WHERE d.id = v.id AND d.organization_id = v.organization_id AND d.leased_by = $1 AND d.status = 'pending'`,
      [
        worker,
        JSON.stringify(done.map((x) => ({ id: x.id, organization_id: x.organizationId, response_status: x.responseStatus, duration_ms: x.durationMs }))),
      ],
    );
  },

  /** After a failure: marks the endpoint failing since now (if not already); returns since when. */
  async markFailing(db: Queryable, organizationId: string, endpointId: string): Promise<string> {
    const row = await q(db)
      .updateTable('webhookEndpoints')
      .set({ failingSince: sql`coalesce(failing_since, now())` })
      .where('organizationId', '=', organizationId)
      .where('id', '=', endpointId)
      .returning(sql<string>`failing_since`.as('failingSince'))
      .executeTakeFirst();
    return row?.failingSince ?? new Date().toISOString();
  },

  async markHealthy(db: Queryable, organizationId: string, endpointId: string): Promise<void> {
    await q(db)
      .updateTable('webhookEndpoints')
      .set({ failingSince: null })
      .where('organizationId', '=', organizationId)
      .where('id', '=', endpointId)
      .where('failingSince', 'is not', null)
      .execute();
  },

  async disable(db: Queryable, organizationId: string, endpointId: string, reason: string): Promise<void> {
    await q(db)
      .updateTable('webhookEndpoints')
      .set({ enabled: false, disabledReason: reason, updatedAt: sql`now()` })
      .where('organizationId', '=', organizationId)
      .where('id', '=', endpointId)
      .where('enabled', '=', true)
      .execute();
  },

  /** Leases of this process's earlier life: on PGlite the server is the only worker (DATA_DIR lock). */
  async releaseAllLeases(db: Queryable): Promise<void> {
    await q(db)
      .updateTable('webhookDeliveries')
      .set({ leaseUntil: null, leasedBy: null })
      .where('status', '=', 'pending')
      .where('leasedBy', 'is not', null)
      .execute();
  },
};
