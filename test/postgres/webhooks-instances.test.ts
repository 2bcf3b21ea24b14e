import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { createInstances } from '../helpers/instances.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

/**
 * Two instances on one PostgreSQL database (always real PostgreSQL), each with its own pool, LISTEN
 * connection and delivery worker: every attempt is sent by exactly one of them.
 */
describe('webhook delivery by two instances (PostgreSQL)', () => {
  let receiver: Receiver;
  let apps: FastifyInstance[] = [];
  let dbs: Database[] = [];
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    receiver = await startReceiver();
    ({ apps, dbs, close } = await createInstances(2, { ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE: '50ms,100ms' }));
  });
  afterAll(async () => {
    await close();
    await receiver.close();
  });

  it('no attempt is sent twice, and both instances deliver', async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance];
    const call = async (app: FastifyInstance, method: 'POST' | 'PATCH', url: string, key: string, body: unknown) => {
      const res = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const org = await call(one, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Two instances' });
    const key = org.apiKey as string;
    const hook = await call(one, 'POST', '/api/v1/webhooks', key, { url: `${receiver.url}/two`, events: ['apartment.created'] });
    const estate = await call(one, 'POST', '/api/v1/estate', key, { name: 'Shared estate' });
    const building = await call(two, 'POST', '/api/v1/building', key, { name: 'Shared building', estateId: estate.id });
    // A slow receiver keeps both workers claiming while the other is busy.
    receiver.answer = () => ({ status: 200, delayMs: 5 });
    const batches = 6;
    const perBatch = 100;
    await Promise.all(
      Array.from({ length: batches }, (_, b) =>
        call(b % 2 ? one : two, 'POST', '/api/v1/apartment/bulk', key, {
          buildingId: building.id,
          apartments: Array.from({ length: perBatch }, (_, i) => ({ name: `A ${b}-${i}` })),
        }),
      ),
    );
    const total = batches * perBatch;
    await receiver.waitFor((all) => all.length >= total, 60_000);
    // Let any duplicate that was going to arrive arrive.
    await new Promise((r) => setTimeout(r, 500));
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    for (const r of receiver.received.slice(0, 20)) expect(new Webhook(hook.secret).verify(r.body, r.headers)).toMatchObject({ type: 'apartment.created' });

    const rows = await dbs[0]!.query<{ attempts: number; senders: number }>(
      `SELECT count(*)::int AS attempts, count(DISTINCT leased_by)::int AS senders FROM webhook_deliveries
       WHERE endpoint_id = $1 AND status = 'succeeded'`,
      [hook.id],
    );
    expect(rows[0]).toEqual({ attempts: total, senders: 2 });
    const pending = await dbs[0]!.query('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND status <> $2', [hook.id, 'succeeded']);
    expect(pending).toEqual([]);
  }, 120_000);
});
