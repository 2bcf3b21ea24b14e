import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emitEvent } from '../../src/modules/webhooks/events.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createApartment, createBuilding, createEstate, createProject } from '../helpers/factories.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

interface Body {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
  changes?: Record<string, { before: unknown; after: unknown }>;
}

describe('webhook delivery', () => {
  let t: TestApp;
  let org: TestOrg;
  let receiver: Receiver;
  let secret: string;
  let endpointId: string;
  /** Each test's endpoint has its own path, so late attempts of an earlier test never count. */
  let path: string;
  let testNo = 0;
  const mine = () => receiver.received.filter((r) => r.path === path);

  /** What arrived at the receiver, each verified with the Standard Webhooks library as a receiver would. */
  /** Deduplicated by webhook-id, as a receiver must (delivery is at least once: a slow answer is retried). */
  const verified = () => {
    const byId = new Map<string, Body & { id: string; raw: string }>();
    for (const r of mine()) {
      const body = new Webhook(secret).verify(r.body, r.headers) as Body;
      const id = r.headers['webhook-id']!;
      // Every attempt of one event carries the same body.
      if (byId.has(id)) expect(r.body).toBe(byId.get(id)!.raw);
      else byId.set(id, { ...body, id, raw: r.body });
    }
    return [...byId.values()];
  };
  const ofType = (type: string) => verified().filter((e) => e.type === type);
  const waitForType = (type: string, count = 1) =>
    receiver.waitFor(
      (all) => new Set(all.filter((r) => r.path === path && JSON.parse(r.body).type === type).map((r) => r.headers['webhook-id'])).size >= count,
    );

  const register = async (body: Record<string, unknown>, key = org.key) => {
    const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', key, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; secret: string };
  };
  const deliveries = async (id = endpointId) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries?limit=100`, key: org.key });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { items: Array<Record<string, unknown>> }).items;
  };
  /** Polls the delivery log until `predicate` holds (the worker runs asynchronously). */
  const eventually = async (predicate: () => Promise<boolean>, what: string, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await predicate())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '20ms,40ms,60ms', WEBHOOK_TIMEOUT_MS: '1000' } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });
  beforeEach(async () => {
    org = await t.createOrg();
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 200 });
    path = `/hook-${++testNo}`;
    const created = await register({ url: `${receiver.url}${path}`, events: ['*'] });
    secret = created.secret;
    endpointId = created.id;
  });

  it('delivers every event type, signed per Standard Webhooks, with the resource as the API returns it', async () => {
    const estate = await createEstate(t, org.key);
    const building = await createBuilding(t, org.key, estate.id);
    const apartment = await createApartment(t, org.key, building.id, { priceCents: 100_000 });
    await waitForType('apartment.created');
    const [created] = ofType('apartment.created');
    const read = await t.request({ method: 'GET', url: `/api/v1/apartment/${apartment.id}`, key: org.key });
    expect(created!.data).toEqual(read.json());
    expect(created!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);

    // A price change is one field in `changes`.
    const patched = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${apartment.id}`, key: org.key, body: { priceCents: 120_000 } });
    expect(patched.statusCode).toBe(200);
    await waitForType('apartment.updated');
    const [updated] = ofType('apartment.updated');
    expect(updated!.changes).toEqual({ priceCents: { before: 100_000, after: 120_000 } });
    expect(updated!.data).toEqual(patched.json());

    const bulk = await t.request({
      method: 'POST',
      url: '/api/v1/apartment/bulk',
      key: org.key,
      body: { buildingId: building.id, apartments: [{ name: 'B1' }, { name: 'B2' }, { name: 'B3' }] },
    });
    expect(bulk.statusCode).toBe(201);
    await waitForType('apartment.created', 4);
    expect(
      ofType('apartment.created')
        .map((e) => e.data.name)
        .sort(),
    ).toEqual(['B1', 'B2', 'B3', created!.data.name as string].sort());

    await t.request({ method: 'PATCH', url: `/api/v1/estate/${estate.id}`, key: org.key, body: { description: 'Now with a view' } });
    await t.request({ method: 'PATCH', url: `/api/v1/building/${building.id}`, key: org.key, body: { description: 'Tower A' } });
    await waitForType('estate.updated');
    await waitForType('building.updated');
    expect(ofType('estate.updated')[0]!.changes).toEqual({ description: { before: null, after: 'Now with a view' } });
    expect(ofType('estate.updated')[0]!.data.id).toBe(estate.id);
    expect(ofType('building.updated')[0]!.changes).toEqual({ description: { before: null, after: 'Tower A' } });

    const inquiry = await t.request({
      method: 'POST',
      url: `/api/v1/estates/${estate.id}/inquiries`,
      body: { name: 'Lead', email: 'lead@example.com', apartmentIds: [apartment.id] },
    });
    expect(inquiry.statusCode).toBe(201);
    await waitForType('inquiry.created');
    expect(ofType('inquiry.created')[0]!.data).toMatchObject({ id: inquiry.json().id, email: 'lead@example.com', status: 'NEW', referralUser: null });
    await t.request({ method: 'PATCH', url: `/api/v1/inquiry/${inquiry.json().id}`, key: org.key, body: { status: 'WON' } });
    await waitForType('inquiry.updated');
    expect(ofType('inquiry.updated')[0]!.changes).toEqual({ status: { before: 'NEW', after: 'WON' } });

    const enabled = await t.request({ method: 'PUT', url: `/api/v1/estates/${estate.id}/map`, key: org.key, body: { enabled: true } });
    expect(enabled.statusCode).toBe(200);
    await waitForType('addon.updated');
    expect(ofType('addon.updated')[0]!.data).toEqual({ estateId: estate.id, addon: 'map' });

    const asset = await t.request({
      method: 'POST',
      url: '/api/v1/asset/upload',
      key: org.key,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b--\r\n',
    });
    expect(asset.statusCode, asset.body).toBe(201);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/asset/${asset.json().id}`, key: org.key });
    expect(del.statusCode).toBe(204);
    await waitForType('asset.deleted');
    expect(ofType('asset.deleted')[0]!.data).toEqual(asset.json());

    // Every event has its own id: no two events share one.
    const events = verified();
    expect(new Set(events.map((e) => `${e.type} ${JSON.stringify(e.data)}`)).size).toBe(events.length);
    const succeeded = async () => {
      const log = await deliveries();
      return new Set(log.filter((d) => d.status === 'succeeded').map((d) => d.eventId)).size === events.length;
    };
    await eventually(succeeded, 'every event recorded as delivered');
  });

  it('sends only the subscribed types, nothing for a disabled endpoint, and nothing for a write that changed nothing', async () => {
    const other = await register({ url: `${receiver.url}/inquiries-only`, events: ['inquiry.created'] });
    const off = await register({ url: `${receiver.url}/off`, events: ['*'], enabled: false });
    const { estate, apartment } = await createProject(t, org.key);
    await t.request({ method: 'PATCH', url: `/api/v1/apartment/${apartment.id}`, key: org.key, body: { name: apartment.name } });
    await t.request({ method: 'POST', url: `/api/v1/estates/${estate.id}/inquiries`, body: { name: 'Lead', email: 'l@example.com' } });
    await receiver.waitFor((all) => all.some((r) => r.path === '/inquiries-only') && all.some((r) => r.path === path && r.body.includes('inquiry.created')));
    expect(receiver.received.filter((r) => r.path === '/inquiries-only').map((r) => JSON.parse(r.body).type)).toEqual(['inquiry.created']);
    expect(receiver.received.filter((r) => r.path === '/off')).toEqual([]);
    expect(mine().filter((r) => r.body.includes('apartment.updated'))).toEqual([]);
    expect(await deliveries(off.id)).toEqual([]);
    expect((await deliveries(other.id)).length).toBe(1);
  });

  it('a rolled-back change emits nothing', async () => {
    const failed = t.db.transaction(async (tx) => {
      await emitEvent(tx, org.id, 'apartment.created', { id: 'rolled-back' });
      throw new Error('the change fails after emitting');
    });
    await expect(failed).rejects.toThrow('the change fails');
    const rows = await t.db.query('SELECT id FROM webhook_events WHERE organization_id = $1', [org.id]);
    expect(rows).toEqual([]);
    expect(await deliveries()).toEqual([]);
  });

  it('retries after 500s and timeouts with the same webhook-id, then succeeds', async () => {
    receiver.answer = () => {
      const n = mine().length;
      return n === 0 ? { status: 500 } : n === 1 ? { status: 200, delayMs: 3_000 } : { status: 200 };
    };
    const { estate } = await createProject(t, org.key);
    await eventually(async () => (await deliveries()).some((d) => d.status === 'succeeded'), 'a successful attempt');
    const log = (await deliveries()).filter((d) => d.eventType === 'apartment.created' || d.eventType === 'estate.updated');
    expect(log.map((d) => [d.attempt, d.status])).toEqual([
      [3, 'succeeded'],
      [2, 'failed'],
      [1, 'failed'],
    ]);
    expect(log[2]).toMatchObject({ responseStatus: 500, error: 'the endpoint answered 500' });
    expect(log[1]).toMatchObject({ responseStatus: null, error: 'no answer within 1000 ms' });
    expect(new Set(log.map((d) => d.eventId)).size).toBe(1);
    const ids = mine().map((r) => r.headers['webhook-id']);
    expect(ids.length).toBe(3);
    expect(new Set(ids).size).toBe(1);
    expect(estate.id).toBeTruthy();
  });

  it('gives up after the last attempt of the schedule, and a retry sends the event again', async () => {
    receiver.answer = () => ({ status: 503 });
    await createProject(t, org.key);
    await eventually(async () => (await deliveries()).length === 4 && (await deliveries()).every((d) => d.status === 'failed'), 'four failed attempts');
    receiver.answer = () => ({ status: 204 });
    const last = (await deliveries())[0]!;
    const retry = await t.request({ method: 'POST', url: `/api/v1/webhooks/${endpointId}/deliveries/${last.id}/retry`, key: org.key });
    expect(retry.statusCode, retry.body).toBe(202);
    expect(retry.json()).toMatchObject({ attempt: 5, status: 'pending', eventId: last.eventId });
    await eventually(async () => (await deliveries())[0]!.status === 'succeeded', 'the retried attempt');
    expect(new Set(mine().map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('a 410 disables the endpoint at once; a redirect is a failure, not followed', async () => {
    receiver.answer = (req) => (req.path === '/moved' ? { status: 302, headers: { location: `${receiver.url}${path}` } } : { status: 410 });
    const moved = await register({ url: `${receiver.url}/moved`, events: ['*'] });
    await createEstate(t, org.key).then((e) => t.request({ method: 'PATCH', url: `/api/v1/estate/${e.id}`, key: org.key, body: { description: 'x' } }));
    await eventually(
      async () => (await t.request({ method: 'GET', url: `/api/v1/webhooks/${endpointId}`, key: org.key })).json().enabled === false,
      'disabled',
    );
    const hook = (await t.request({ method: 'GET', url: `/api/v1/webhooks/${endpointId}`, key: org.key })).json();
    expect(hook).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone' });
    expect((await deliveries()).map((d) => [d.attempt, d.status, d.responseStatus])).toEqual([[1, 'failed', 410]]);
    await eventually(async () => (await deliveries(moved.id)).length >= 2, 'the redirect retried');
    const redirected = await deliveries(moved.id);
    expect(redirected.every((d) => d.status === 'failed' || d.status === 'pending')).toBe(true);
    expect(redirected.at(-1)).toMatchObject({ responseStatus: 302, error: 'the endpoint answered 302 (redirects are not followed)' });
    expect(mine()).toHaveLength(1);
  });

  it('an endpoint failing every attempt for 3 days is disabled', async () => {
    receiver.answer = () => ({ status: 500 });
    await t.db.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '3 days 1 minute' WHERE id = $1`, [endpointId]);
    await createEstate(t, org.key).then((e) => t.request({ method: 'PATCH', url: `/api/v1/estate/${e.id}`, key: org.key, body: { description: 'x' } }));
    await eventually(
      async () => (await t.request({ method: 'GET', url: `/api/v1/webhooks/${endpointId}`, key: org.key })).json().enabled === false,
      'disabled',
    );
    expect((await t.request({ method: 'GET', url: `/api/v1/webhooks/${endpointId}`, key: org.key })).json().disabledReason).toBe(
      'Every delivery attempt failed for 3 days',
    );
    // Re-enabling clears the reason.
    const on = await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${endpointId}`, key: org.key, body: { enabled: true } });
    expect(on.json()).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('after a rotation both secrets sign for 24 hours', async () => {
    const rotated = await t.request({ method: 'POST', url: `/api/v1/webhooks/${endpointId}/rotate-secret`, key: org.key });
    expect(rotated.statusCode).toBe(200);
    const next = rotated.json().secret as string;
    expect(next).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(next).not.toBe(secret);
    await createEstate(t, org.key).then((e) => t.request({ method: 'PATCH', url: `/api/v1/estate/${e.id}`, key: org.key, body: { description: 'y' } }));
    await waitForType('estate.updated');
    const [req] = mine();
    expect(req!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(next).verify(req!.body, req!.headers)).toMatchObject({ type: 'estate.updated' });
    expect(new Webhook(secret).verify(req!.body, req!.headers)).toMatchObject({ type: 'estate.updated' });
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(req!.body, req!.headers)).toThrow();
  });

  it('rotating twice keeps both rotated-out secrets signing until their own 24 hours end (issue 25)', async () => {
    const rotate = () =>
      t.request({ method: 'POST', url: `/api/v1/webhooks/${endpointId}/rotate-secret`, key: org.key, headers: { 'content-type': 'application/json' } });
    const first = await rotate();
    expect(first.statusCode, first.body).toBe(200);
    // The first rotated-out secret is 23 hours old when the second rotation comes.
    await t.db.query(`UPDATE webhook_retired_secrets SET expires_at = now() + interval '1 hour' WHERE endpoint_id = $1`, [endpointId]);
    const second = await rotate();
    expect(second.statusCode, second.body).toBe(200);
    const secrets = [secret, first.json().secret as string, second.json().secret as string];
    const sendOne = async (description: string) => {
      receiver.received.length = 0;
      await createEstate(t, org.key).then((e) => t.request({ method: 'PATCH', url: `/api/v1/estate/${e.id}`, key: org.key, body: { description } }));
      await waitForType('estate.updated');
      return mine()[0]!;
    };
    const during = await sendOne('three secrets');
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(3);
    for (const s of secrets) expect(new Webhook(s).verify(during.body, during.headers)).toMatchObject({ type: 'estate.updated' });
    // The first rotated-out secret's 24 hours end; the second's go on.
    await t.db.query(
      `UPDATE webhook_retired_secrets SET expires_at = now() - interval '1 second' WHERE endpoint_id = $1 AND expires_at < now() + interval '2 hours'`,
      [endpointId],
    );
    const after = await sendOne('two secrets');
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(secret).verify(after.body, after.headers)).toThrow();
    for (const s of secrets.slice(1)) expect(new Webhook(s).verify(after.body, after.headers)).toMatchObject({ type: 'estate.updated' });
  });

  it('at most 10 rotated-out secrets sign at once: one more rotation within their 24 hours is 409', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await t.request({ method: 'POST', url: `/api/v1/webhooks/${endpointId}/rotate-secret`, key: org.key })).statusCode).toBe(200);
    }
    const refused = await t.request({ method: 'POST', url: `/api/v1/webhooks/${endpointId}/rotate-secret`, key: org.key });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('10 rotated-out secrets');
    // Once one has expired, rotating works again.
    await t.db.query(
      `UPDATE webhook_retired_secrets SET expires_at = now() - interval '1 second' WHERE endpoint_id = $1 AND expires_at = (SELECT min(expires_at) FROM webhook_retired_secrets WHERE endpoint_id = $1)`,
      [endpointId],
    );
    expect((await t.request({ method: 'POST', url: `/api/v1/webhooks/${endpointId}/rotate-secret`, key: org.key })).statusCode).toBe(200);
  });
});
