import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type DashboardUser, joinAs } from '../helpers/dashboard.js';
import { createProject } from '../helpers/factories.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

interface Body {
  type: string;
  timestamp: string;
  data: Record<string, unknown> & { id: string; updatedAt: string; priceChangeHistory: unknown };
  changes?: Record<string, { before: unknown; after: unknown }>;
  actor: { type: string; id: string } | null;
}

/**
 * A real HTTP receiver registered as a webhook endpoint (issue 35): the dashboard's inline price change and
 * the same change through the API arrive as `apartment.updated`, and differ only in `actor` (and the
 * event's time). Both engines.
 */
describe('dashboard writes seen by a webhook receiver', () => {
  let t: TestApp;
  let org: TestOrg;
  let receiver: Receiver;
  let editor: DashboardUser;
  let secret: string;
  let key: { id: string; key: string };
  let apartmentId: string;
  let estateId: string;

  /** The verified bodies of the `apartment.updated` events that arrived, one per event (delivery is at least once). */
  const arrived = () => {
    const byId = new Map<string, Body>();
    for (const r of receiver.received) byId.set(r.headers['webhook-id']!, new Webhook(secret).verify(r.body, r.headers) as Body);
    return [...byId.values()].filter((b) => b.type === 'apartment.updated');
  };
  const waitForEvents = (count: number) => receiver.waitFor(() => arrived().length >= count, 20_000);
  /**
   * A body without what names who made the change and when: what must be equal between the two. The apartment's
   * price history keeps growing (the API's change comes after the dashboard's and a change back), so only the entry
   * this change added is compared, without its date.
   */
  const withoutActor = ({ actor: _, timestamp: __, data: { updatedAt: ___, priceChangeHistory, ...data }, ...rest }: Body) => {
    const { date: ____, ...added } = (priceChangeHistory as Array<{ date: string }>).at(-1)!;
    return { ...rest, data: { ...data, priceChangeHistoryAdded: added } };
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '20ms,40ms,60ms', WEBHOOK_TIMEOUT_MS: '2000' } });
    receiver = await startReceiver();
    org = await t.createOrg('Webhook Org');
    editor = await joinAs(t, org.id, 'editor@hooks.example', 'editor');
    key = await t.issueKey(org.id, ['read', 'write']);
    const project = await createProject(t, org.key);
    estateId = project.estate.id;
    apartmentId = project.apartment.id;
    const set = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${apartmentId}`, key: org.key, body: { priceCents: 300_000_00, currency: 'EUR' } });
    expect(set.statusCode, set.body).toBe(200);
    const hook = await t.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      key: org.key,
      body: { url: `${receiver.url}/hook`, events: ['apartment.updated'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    secret = hook.json().secret;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('the inline price change arrives with changes and actor {type: user}; the same change through the API is the same body but for actor {type: apiKey}', async () => {
    const base = `/dashboard/o/${org.id}`;
    const table = await editor.get(`${base}/apartments?estateId=${estateId}`);
    expect(table.statusCode).toBe(200);
    const version = new RegExp(`action="[^"]*/${apartmentId}"[^]*?name="version" value="([^"]+)"`).exec(table.body)![1]!.replace(/&quot;/g, '"');
    const saved = await editor.post(`${base}/apartments/${apartmentId}`, { version, status: 'ACTIVE', price: '295000', back: `estateId=${estateId}` });
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(303);
    await waitForEvents(1);
    const [dashboard] = arrived();
    const [user] = await t.db.query<{ id: string }>("SELECT id FROM users WHERE email = 'editor@hooks.example'");
    expect(dashboard!.changes).toEqual({ priceCents: { before: 300_000_00, after: 295_000_00 } });
    expect(dashboard!.actor).toEqual({ type: 'user', id: user!.id });
    expect(dashboard!.data.id).toBe(apartmentId);

    // Back to the price it had, then the same change again, this time through the API with another key.
    const back = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${apartmentId}`, key: org.key, body: { priceCents: 300_000_00 } });
    expect(back.statusCode, back.body).toBe(200);
    const api = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${apartmentId}`, key: key.key, body: { status: 'ACTIVE', priceCents: 295_000_00 } });
    expect(api.statusCode, api.body).toBe(200);
    await waitForEvents(3);
    const viaApi = arrived().find((b) => b.actor?.id === key.id)!;
    expect(viaApi).toBeDefined();
    expect(viaApi.actor).toEqual({ type: 'apiKey', id: key.id });
    expect(viaApi.changes).toEqual({ priceCents: { before: 300_000_00, after: 295_000_00 } });
    expect(withoutActor(viaApi)).toEqual(withoutActor(dashboard!));
    expect(viaApi.actor).not.toEqual(dashboard!.actor);
  });
});
