import type { Static } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { isUuid, newId } from '../../ids.js';
import { wakeWorkers } from './events.js';
import { type DeliveryRow, type EndpointRow, webhooksRepository as repo } from './repository.js';
import { type CreateWebhookBody, type Delivery, MAX_ENDPOINTS, type UpdateWebhookBody, type Webhook } from './schemas.js';
import { newSecret, seal } from './secrets.js';
import { checkEndpointUrl } from './send.js';

/** How long a rotated-out secret keeps signing next to the new one. */
const ROTATION_OVERLAP_HOURS = 24;
/** Rotated-out secrets signing at once next to the current one: each adds a signature to every request. */
export const MAX_RETIRED_SECRETS = 10;

const toWebhook = (row: EndpointRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  enabled: row.enabled,
  createdAt: row.createdAt,
  disabledReason: row.disabledReason,
});

const toDelivery = (row: DeliveryRow): Delivery => ({
  id: row.id,
  eventId: row.eventId,
  eventType: row.eventType,
  attempt: row.attempt,
  status: row.status as Delivery['status'],
  responseStatus: row.responseStatus,
  error: row.error,
  durationMs: row.durationMs,
  createdAt: row.createdAt,
});

const encodeCursor = (row: DeliveryRow) => Buffer.from(`${row.createdAt}|${row.id}`).toString('base64url');

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || !isUuid(id) || Number.isNaN(Date.parse(createdAt))) {
    throw badRequest('cursor is not a nextCursor this endpoint returned');
  }
  return { createdAt: new Date(createdAt).toISOString(), id };
}

const dedupe = (events: string[]) => [...new Set(events)];

export class WebhooksService {
  constructor(
    private readonly db: Database,
    private readonly config: Readonly<Config>,
  ) {}

  private async require(organizationId: string, id: string): Promise<EndpointRow> {
    const row = isUuid(id) ? await repo.get(this.db, organizationId, id) : undefined;
    if (!row) throw notFound('Webhook', id);
    return row;
  }

  async create(organizationId: string, input: Static<typeof CreateWebhookBody>): Promise<Webhook & { secret: string }> {
    const url = await checkEndpointUrl(input.url, this.config.allowPrivateUrls);
    const secret = newSecret();
    const row = await this.db.transaction(async (tx) => {
      if ((await repo.countLocked(tx, organizationId)) >= MAX_ENDPOINTS) {
        throw conflict(`An organization has at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`);
      }
      return repo.insert(tx, {
        id: newId(),
        organizationId,
        url,
        events: dedupe(input.events),
        description: input.description ?? null,
        enabled: input.enabled ?? true,
        secret: seal(secret, this.config.webhooks.secretKey),
      });
    });
    return { ...toWebhook(row), secret };
  }

  async list(organizationId: string): Promise<Webhook[]> {
    return (await repo.list(this.db, organizationId)).map(toWebhook);
  }

  async get(organizationId: string, id: string): Promise<Webhook> {
    return toWebhook(await this.require(organizationId, id));
  }

  async update(organizationId: string, id: string, input: Static<typeof UpdateWebhookBody>): Promise<Webhook> {
    const current = await this.require(organizationId, id);
    const url = input.url === undefined ? undefined : await checkEndpointUrl(input.url, this.config.allowPrivateUrls);
    const values: Parameters<typeof repo.update>[3] = {};
    if (url !== undefined) values.url = url;
    if (input.events !== undefined) values.events = dedupe(input.events);
    if (input.description !== undefined) values.description = input.description;
    if (input.enabled !== undefined) {
      values.enabled = input.enabled;
      // Re-enabling starts afresh: no reason, and three new days before failures disable it again.
      if (input.enabled && !current.enabled) Object.assign(values, { disabledReason: null, failingSince: null });
    }
    const row = await this.db.transaction(async (tx) => {
      const updated = await repo.update(tx, organizationId, id, values);
      // Attempts left pending while it was disabled go out now.
      if (updated && input.enabled && !current.enabled) await wakeWorkers(tx);
      return updated;
    });
    if (!row) throw notFound('Webhook', id);
    return toWebhook(row);
  }

  async delete(organizationId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await repo.delete(this.db, organizationId, id))) throw notFound('Webhook', id);
  }

  /**
   * A new secret; the current one is retired and keeps signing next to it until its own 24 hours end,
   * as does every secret retired before it (Standard Webhooks: several signatures, space-separated).
   * At most MAX_RETIRED_SECRETS sign alongside the current one: one more rotation within 24 hours is 409.
   */
  async rotateSecret(organizationId: string, id: string): Promise<{ secret: string }> {
    const secret = newSecret();
    await this.db.transaction(async (tx) => {
      const current = isUuid(id) ? await repo.get(tx, organizationId, id, true) : undefined;
      if (!current) throw notFound('Webhook', id);
      const retired = await repo.countRetiredSecrets(tx, organizationId, id);
      if (retired >= MAX_RETIRED_SECRETS) {
        throw conflict(
          `Webhook ${id} already has ${retired} rotated-out secrets signing for their 24 hours; the oldest expires at ${await repo.firstRetiredExpiry(tx, organizationId, id)}, rotate after that`,
        );
      }
      await repo.retireSecret(tx, organizationId, id, current.secret, ROTATION_OVERLAP_HOURS);
      await repo.update(tx, organizationId, id, {
        secret: seal(secret, this.config.webhooks.secretKey),
        // Still written for an instance of the previous release during a rolling upgrade (migrations/0013).
        previousSecret: current.secret,
        previousSecretExpiresAt: sql<string>`now() + make_interval(hours => ${ROTATION_OVERLAP_HOURS})` as never,
      });
    });
    return { secret };
  }

  async deliveries(
    organizationId: string,
    id: string,
    query: { limit?: number | undefined; cursor?: string | undefined },
  ): Promise<{ items: Delivery[]; nextCursor: string | null }> {
    const endpoint = await this.require(organizationId, id);
    const limit = query.limit ?? 20;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const rows = await repo.deliveries(this.db, organizationId, endpoint.id, limit + 1, after);
    const page = rows.slice(0, limit);
    return { items: page.map(toDelivery), nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null };
  }

  /** Sends the event of that attempt again now, as a new attempt. */
  async retry(organizationId: string, id: string, deliveryId: string): Promise<Delivery> {
    const endpoint = await this.require(organizationId, id);
    const delivery = isUuid(deliveryId) ? await repo.getDelivery(this.db, organizationId, endpoint.id, deliveryId) : undefined;
    if (!delivery) throw notFound('Delivery', deliveryId);
    if (!endpoint.enabled) throw conflict('The webhook is disabled; enable it (PATCH enabled: true) before retrying');
    const row = await this.db.transaction(async (tx) => {
      const queued = await repo.queueAttempt(tx, { id: newId(), organizationId, endpointId: endpoint.id, eventId: delivery.eventId, dueInMs: 0 });
      await wakeWorkers(tx);
      return queued;
    });
    return toDelivery(row);
  }
}
