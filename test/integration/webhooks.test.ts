import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { expect422, expectError, expectUnreadableBodies } from '../helpers/bad-input.js';
import { createProject } from '../helpers/factories.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

describe('webhook endpoints API', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let receiver: Receiver;

  const create = (key: string, body: unknown, headers?: Record<string, string>) =>
    t.request({ method: 'POST', url: '/api/v1/webhooks', key, body, ...(headers ? { headers } : {}) });

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '20ms' } });
    a = await t.createOrg();
    b = await t.createOrg();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('creates an endpoint and shows its secret only in the creation answer', async () => {
    const res = await create(a.key, { url: `${receiver.url}/a`, events: ['inquiry.created', 'apartment.updated'], description: 'CRM' });
    expect(res.statusCode, res.body).toBe(201);
    const hook = res.json();
    expect(hook).toEqual({
      id: expect.any(String),
      url: `${receiver.url}/a`,
      events: ['inquiry.created', 'apartment.updated'],
      description: 'CRM',
      enabled: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      createdAt: expect.any(String),
      disabledReason: null,
    });
    const { secret, ...shown } = hook;
    const read = await t.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}`, key: a.key });
    expect(read.json()).toEqual(shown);
    const list = await t.request({ method: 'GET', url: '/api/v1/webhooks', key: a.key });
    expect(list.json()).toContainEqual(shown);
    expect(list.body).not.toContain(secret);
    expect(list.body).not.toContain('plain:');
    // Another organization sees none of it.
    expect((await t.request({ method: 'GET', url: '/api/v1/webhooks', key: b.key })).json()).toEqual([]);
    expectError(await t.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}`, key: b.key }), 404, `Webhook with id ${hook.id} not found`);
  });

  it('changes, re-reads and deletes an endpoint; GET-modify-PATCH works', async () => {
    const hook = (await create(a.key, { url: `${receiver.url}/b`, events: ['*'] })).json();
    const { secret: _, ...shown } = hook;
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${hook.id}`,
      key: a.key,
      body: { ...shown, events: ['estate.updated', 'estate.updated'], enabled: false, description: null },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ events: ['estate.updated'], enabled: false, description: null, disabledReason: null });
    expectError(await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${hook.id}`, key: b.key, body: { enabled: true } }), 404);
    expectError(await t.request({ method: 'DELETE', url: `/api/v1/webhooks/${hook.id}`, key: b.key }), 404);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/webhooks/${hook.id}`, key: a.key });
    expect(del.statusCode).toBe(204);
    expectError(await t.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}`, key: a.key }), 404);
    expectError(await t.request({ method: 'DELETE', url: `/api/v1/webhooks/${hook.id}`, key: a.key }), 404);
    expectError(await t.request({ method: 'GET', url: '/api/v1/webhooks/not-a-uuid', key: a.key }), 404);
  });

  it('refuses bad bodies with 422 naming the field, unreadable ones with 400, and stores nothing', async () => {
    const target = { method: 'POST' as const, url: '/api/v1/webhooks', key: a.key };
    const before = (await t.request({ method: 'GET', url: '/api/v1/webhooks', key: a.key })).json().length;
    await expectUnreadableBodies(t, target);
    await expect422(t, target, { events: ['*'] }, 'url');
    await expect422(t, target, { url: `${receiver.url}/x` }, 'events');
    await expect422(t, target, { url: `${receiver.url}/x`, events: [] }, 'events');
    await expect422(t, target, { url: `${receiver.url}/x`, events: ['apartment.deleted'] }, 'events');
    await expect422(t, target, { url: `${receiver.url}/x`, events: ['*'], enabled: 'yes' }, 'enabled');
    await expect422(t, target, { url: `${receiver.url}/x`, events: ['*'], secret: 'whsec_mine' }, 'secret');
    await expect422(t, target, { url: 'not a url', events: ['*'] }, 'url');
    await expect422(t, target, { url: 'ftp://example.com/hook', events: ['*'] }, 'url');
    await expect422(t, target, { url: 'https://user:pw@example.com/hook', events: ['*'] }, 'url');
    await expect422(t, target, { url: `https://example.com/${'x'.repeat(2100)}`, events: ['*'] }, 'url');
    await expect422(t, target, { url: `${receiver.url}/x`, events: ['*'], description: 'd'.repeat(20_001) }, 'description');
    // The cloud metadata address stays refused even where private addresses are allowed.
    await expect422(t, target, { url: 'http://169.254.169.254/latest', events: ['*'] }, 'url');
    const hook = (await create(a.key, { url: `${receiver.url}/c`, events: ['*'] })).json();
    const patch = { method: 'PATCH' as const, url: `/api/v1/webhooks/${hook.id}`, key: a.key };
    await expectUnreadableBodies(t, patch);
    await expect422(t, patch, { events: [] }, 'events');
    await expect422(t, patch, { url: 'gopher://x' }, 'url');
    await expect422(t, patch, { enabled: 1 }, 'enabled');
    expect((await t.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}`, key: a.key })).json().url).toBe(`${receiver.url}/c`);
    expect((await t.request({ method: 'GET', url: '/api/v1/webhooks', key: a.key })).json().length).toBe(before + 1);
  });

  it('refuses private and loopback addresses unless ALLOW_PRIVATE_URLS', async () => {
    const strict = await createTestApp({ env: { ALLOW_PRIVATE_URLS: 'false' } });
    try {
      const org = await strict.createOrg();
      const target = { method: 'POST' as const, url: '/api/v1/webhooks', key: org.key };
      for (const url of [receiver.url, 'http://localhost:9/x', 'http://10.0.0.1/x', 'http://[::1]/x', 'http://[::ffff:127.0.0.1]/x']) {
        await expect422(strict, target, { url, events: ['*'] }, 'url');
      }
      expect((await strict.request({ method: 'GET', url: '/api/v1/webhooks', key: org.key })).json()).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  // Every other test app here runs with ALLOW_PRIVATE_URLS=true and a loopback receiver (test/helpers/app.ts).
  it('ALLOW_PRIVATE_ASSET_URLS, the old name of ALLOW_PRIVATE_URLS, still opens webhook targets to loopback', async () => {
    const envs: Array<Record<string, string>> = [{ ALLOW_PRIVATE_URLS: '', ALLOW_PRIVATE_ASSET_URLS: 'true' }];
    for (const env of envs) {
      const open = await createTestApp({ env });
      try {
        expect(open.config.allowPrivateUrls).toBe(true);
        const org = await open.createOrg();
        const res = await open.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: { url: `${receiver.url}/local`, events: ['*'] } });
        expect(res.statusCode, JSON.stringify(env)).toBe(201);
      } finally {
        await open.close();
      }
    }
  });

  it('allows at most 20 endpoints per organization (409 beyond)', async () => {
    const org = await t.createOrg();
    for (let i = 0; i < 20; i++) expect((await create(org.key, { url: `${receiver.url}/n${i}`, events: ['*'] })).statusCode).toBe(201);
    expectError(await create(org.key, { url: `${receiver.url}/n20`, events: ['*'] }), 409, /at most 20/);
    // The limit is per organization.
    expect((await create(b.key, { url: `${receiver.url}/other`, events: ['*'] })).statusCode).toBe(201);
  });

  it('is idempotent with Idempotency-Key: the replay repeats the endpoint and its secret', async () => {
    const body = { url: `${receiver.url}/keyed`, events: ['*'] };
    const first = await create(a.key, body, { 'idempotency-key': 'hook-1' });
    const again = await create(a.key, body, { 'idempotency-key': 'hook-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const all = (await t.request({ method: 'GET', url: '/api/v1/webhooks', key: a.key })).json() as Array<{ url: string }>;
    expect(all.filter((h) => h.url === body.url)).toHaveLength(1);
  });

  it('rotates the secret (404 for another organization)', async () => {
    const hook = (await create(a.key, { url: `${receiver.url}/r`, events: ['*'] })).json();
    expectError(await t.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/rotate-secret`, key: b.key }), 404);
    const rotated = await t.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/rotate-secret`, key: a.key });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json()).toEqual({ secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.json().secret).not.toBe(hook.secret);
  });

  it('pages the delivery log newest first with a cursor, and retries one attempt', async () => {
    const org = await t.createOrg();
    const hook = (await create(org.key, { url: `${receiver.url}/log`, events: ['apartment.created'] })).json();
    const { building } = await createProject(t, org.key);
    await t.request({
      method: 'POST',
      url: '/api/v1/apartment/bulk',
      key: org.key,
      body: { buildingId: building.id, apartments: [{ name: 'L1' }, { name: 'L2' }, { name: 'L3' }, { name: 'L4' }] },
    });
    await receiver.waitFor((all) => all.filter((r) => r.path === '/log').length >= 5);
    const url = `/api/v1/webhooks/${hook.id}/deliveries`;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await t.request({ method: 'GET', url, key: org.key, query: { limit: '2', ...(cursor ? { cursor } : {}) } });
      expect(page.statusCode, page.body).toBe(200);
      const body = page.json() as { items: Array<{ id: string; createdAt: string; eventType: string }>; nextCursor: string | null };
      expect(body.items.length).toBeLessThanOrEqual(2);
      for (const d of body.items) expect(d).toMatchObject({ eventType: 'apartment.created', attempt: 1 });
      seen.push(...body.items.map((d) => d.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);

    expectError(await t.request({ method: 'GET', url, key: org.key, query: { limit: '0' } }), 400, 'limit');
    expectError(await t.request({ method: 'GET', url, key: org.key, query: { limit: '101' } }), 400, 'limit');
    expectError(await t.request({ method: 'GET', url, key: org.key, query: { cursor: 'garbage' } }), 400, 'cursor');
    expectError(await t.request({ method: 'GET', url, key: b.key }), 404);

    const retryUrl = `/api/v1/webhooks/${hook.id}/deliveries/${seen[0]}/retry`;
    expectError(await t.request({ method: 'POST', url: retryUrl, key: b.key }), 404);
    expectError(await t.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/deliveries/${hook.id}/retry`, key: org.key }), 404, 'Delivery');
    const retried = await t.request({ method: 'POST', url: retryUrl, key: org.key });
    expect(retried.statusCode, retried.body).toBe(202);
    expect(retried.json()).toMatchObject({ attempt: 2, status: 'pending' });
    await receiver.waitFor((all) => all.filter((r) => r.path === '/log').length >= 6);

    await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${hook.id}`, key: org.key, body: { enabled: false } });
    expectError(await t.request({ method: 'POST', url: retryUrl, key: org.key }), 409, 'disabled');
  });
});

describe('webhook events of the sync calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  /** The outbox rows of an organization, oldest first, as their type and parsed body. */
  const events = async (organizationId: string) =>
    (
      await t.db.query<{ type: string; body: string }>('SELECT type, body FROM webhook_events WHERE organization_id = $1 ORDER BY created_at, id', [
        organizationId,
      ])
    ).map((e) => ({
      type: e.type,
      body: JSON.parse(e.body) as { type: string; data: { id: string; externalId: string | null }; changes?: Record<string, unknown> },
    }));

  it('upsert and bulk PATCH emit one event per apartment created or changed, none for an unchanged one', async () => {
    const org = await t.createOrg();
    const hook = await t.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
    expect(hook.statusCode, hook.body).toBe(201);
    const { building } = await createProject(t, org.key);
    const upsert = (apartments: unknown[]) =>
      t.request({ method: 'POST', url: '/api/v1/apartment/upsert', key: org.key, body: { buildingId: building.id, apartments } });

    expect(
      (
        await upsert([
          { externalId: 'E-1', name: 'E1', priceCents: 100 },
          { externalId: 'E-2', name: 'E2' },
        ])
      ).statusCode,
    ).toBe(200);
    const created = (await events(org.id)).filter((e) => e.type === 'apartment.created' && e.body.data.externalId !== null);
    expect(created.map((e) => e.body.data.externalId).sort()).toEqual(['E-1', 'E-2']);

    const second = await upsert([{ externalId: 'E-1', priceCents: 150 }, { externalId: 'E-2' }]);
    expect(second.json()).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    let updated = (await events(org.id)).filter((e) => e.type === 'apartment.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]!.body.data.externalId).toBe('E-1');
    expect(updated[0]!.body.changes).toEqual({ priceCents: { before: 100, after: 150 } });

    const bulk = await t.request({
      method: 'PATCH',
      url: '/api/v1/apartment/bulk',
      key: org.key,
      body: { apartments: [{ externalId: 'E-2', status: 'SOLD' }] },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    updated = (await events(org.id)).filter((e) => e.type === 'apartment.updated');
    expect(updated).toHaveLength(2);
    expect(updated[1]!.body.changes).toEqual({ status: { before: 'ACTIVE', after: 'SOLD' } });
  });
});

describe('apartment.created written by the create statement itself', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  /** The endpoints of the first attempts of each apartment.created event (failed ones are retried), by apartment name. */
  const attempts = async (organizationId: string) => {
    const rows = await t.db.query<{ name: string; endpoints: string[] }>(
      `SELECT e.body::json->'data'->>'name' AS name, array_agg(d.endpoint_id::text ORDER BY d.endpoint_id) AS endpoints
       FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id
       WHERE e.organization_id = $1 AND e.type = 'apartment.created' AND d.attempt = 1 GROUP BY e.id, e.body`,
      [organizationId],
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.endpoints]));
  };

  it('queues one attempt per subscribed endpoint however the endpoints changed since the last create', async () => {
    const org = await t.createOrg();
    const { building } = await createProject(t, org.key);
    const hook = async (events: string[]) => {
      const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: { url: 'http://127.0.0.1:9/hook', events } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const create = async (name: string) => {
      const res = await t.request({ method: 'POST', url: '/api/v1/apartment', key: org.key, body: { buildingId: building.id, name } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    };

    await create('none yet');
    const first = await hook(['apartment.created']);
    const second = await hook(['*']);
    await hook(['inquiry.created']); // not subscribed to apartments
    const answer = await create('two');
    const third = await hook(['apartment.created', 'apartment.updated']);
    await create('three');
    // Disabled endpoints keep their attempts (a delete would take them along), so the log shows all.
    for (const id of [first, third]) await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${id}`, key: org.key, body: { enabled: false } });
    await create('one left');
    await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${second}`, key: org.key, body: { enabled: false } });
    await create('none left');

    const sorted = (ids: string[]) => [...ids].sort();
    expect(await attempts(org.id)).toEqual({
      two: sorted([first, second]),
      three: sorted([first, second, third]),
      'one left': [second],
    });
    // The event carries the apartment as the create answered it, and the key that made it as its actor.
    const [event] = await t.db.query<{ body: string }>(
      `SELECT body FROM webhook_events WHERE organization_id = $1 AND type = 'apartment.created' AND body::json->'data'->>'id' = $2`,
      [org.id, answer.id],
    );
    expect(JSON.parse(event!.body)).toEqual({
      type: 'apartment.created',
      timestamp: expect.any(String),
      data: answer,
      actor: { type: 'apiKey', id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
  });

  it('writes neither the apartment nor an event for a building of another organization, with endpoints subscribed', async () => {
    const org = await t.createOrg();
    const other = await t.createOrg();
    const { building } = await createProject(t, other.key);
    await t.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
    for (let i = 0; i < 2; i++) {
      const res = await t.request({ method: 'POST', url: '/api/v1/apartment', key: org.key, body: { buildingId: building.id, name: 'Stray' } });
      expectError(res, 404, `Building with id ${building.id} not found`);
    }
    const [row] = await t.db.query<{ events: number; apartments: number }>(
      `SELECT (SELECT count(*) FROM webhook_events WHERE organization_id = $1)::int AS events,
              (SELECT count(*) FROM apartments WHERE organization_id = $1)::int AS apartments`,
      [org.id],
    );
    expect(row).toEqual({ events: 0, apartments: 0 });
  });
});
