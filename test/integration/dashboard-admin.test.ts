import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type DashboardUser, ORIGIN, formBody, joinAs } from '../helpers/dashboard.js';
import { createEstate } from '../helpers/factories.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

type Key = { id: string; name: string; prefix: string; revokedAt: string | null };
type Hook = { id: string; url: string; events: string[]; description: string | null; enabled: boolean };

/** The dashboard's admin screens (issue 35): API keys and webhooks, through app.inject (both engines). */
describe('dashboard: API keys and webhooks', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let admin: DashboardUser;
  let editor: DashboardUser;
  let outsider: DashboardUser;
  let receiver: Receiver;
  let base: string;

  const keys = async (org = a) => (await t.request({ method: 'GET', url: '/api/v1/api-keys', key: org.key })).json() as Key[];
  const hooks = async (org = a) => (await t.request({ method: 'GET', url: '/api/v1/webhooks', key: org.key })).json() as Hook[];
  const deliveries = async (id: string) =>
    (
      (await t.request({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries?limit=100`, key: a.key })).json() as {
        items: Array<{ id: string; status: string }>;
      }
    ).items;
  const eventually = async (predicate: () => Promise<boolean>, what: string, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await predicate())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const secretIn = (html: string, prefix: string) => new RegExp(`value="(${prefix}[^"]+)"`).exec(html)?.[1];

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '20ms', WEBHOOK_TIMEOUT_MS: '1000' } });
    receiver = await startReceiver();
    a = await t.createOrg('Admin Screens A');
    b = await t.createOrg('Admin Screens B');
    admin = await joinAs(t, a.id, 'admin@admin-screens.example', 'admin');
    editor = await joinAs(t, a.id, 'editor@admin-screens.example', 'editor');
    outsider = await joinAs(t, b.id, 'admin@admin-screens-b.example', 'admin');
    base = `/dashboard/o/${a.id}`;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('an admin creates a key: the secret is on that answer only, it works, and revoking it ends it', async () => {
    const list = await admin.get(`${base}/api-keys`);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('default');
    expect(list.body).toContain(`href="${base}/api-keys" aria-current="page"`);

    const blank = await admin.post(`${base}/api-keys`, { name: '  ', kind: 'write' });
    expect(blank.statusCode).toBe(422);
    expect(blank.body).toContain('id="field-name-error"');
    const badKind = await admin.post(`${base}/api-keys`, { name: 'ERP', kind: 'root' });
    expect(badKind.statusCode).toBe(422);
    expect(badKind.body).toContain('id="field-kind-error"');
    expect((await keys()).length).toBe(1);

    const created = await admin.post(`${base}/api-keys`, { name: 'ERP sync', kind: 'read' });
    expect(created.statusCode, created.body).toBe(201);
    const secret = secretIn(created.body, 'epk_');
    expect(secret).toBeTruthy();
    expect(created.body).toContain('shown only on this page');
    const stored = (await keys()).find((k) => k.name === 'ERP sync')!;
    expect(secret!.startsWith(stored.prefix)).toBe(true);
    const me = await t.request({ method: 'GET', url: '/api/v1/api-keys/current', key: secret! });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ name: 'ERP sync', scopes: ['read'] });

    // Never again: not on the list, not on a reload.
    const again = await admin.get(`${base}/api-keys`);
    expect(again.body).toContain('ERP sync');
    expect(again.body).toContain(`${stored.prefix}…`);
    expect(again.body).not.toContain(secret!);

    const revoked = await admin.post(`${base}/api-keys/${stored.id}/revoke`, {});
    expect(revoked.statusCode).toBe(303);
    expect(revoked.headers.location).toBe(`${base}/api-keys?done=revoked`);
    expect((await t.request({ method: 'GET', url: '/api/v1/api-keys/current', key: secret! })).statusCode).toBe(401);
    expect((await admin.get(revoked.headers.location as string)).body).toMatch(/Revoked \d{4}-\d{2}-\d{2}/);
  });

  it('the last read-and-write key is not revoked: 409 explained; another organization’s key is 404', async () => {
    const only = (await keys()).find((k) => k.name === 'default')!;
    const refused = await admin.post(`${base}/api-keys/${only.id}/revoke`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('last read-and-write key');
    expect((await keys()).find((k) => k.id === only.id)!.revokedAt).toBeNull();

    const theirs = (await keys(b))[0]!;
    expect((await admin.post(`${base}/api-keys/${theirs.id}/revoke`, {})).statusCode).toBe(404);
    expect((await admin.post(`${base}/api-keys/not-a-uuid/revoke`, {})).statusCode).toBe(404);
    expect((await keys(b))[0]!.revokedAt).toBeNull();
    expect((await outsider.get(`${base}/api-keys`)).statusCode).toBe(404);
  });

  it('an editor cannot see or make keys or webhooks: 403 and nothing written; no CSRF token: 403', async () => {
    const before = (await keys()).length;
    expect((await editor.get(`${base}/api-keys`)).statusCode).toBe(403);
    expect((await editor.post(`${base}/api-keys`, { name: 'sneaky', kind: 'write' })).statusCode).toBe(403);
    expect((await editor.get(`${base}/webhooks`)).statusCode).toBe(403);
    expect((await editor.post(`${base}/webhooks`, { url: `${receiver.url}/x`, events: '*' })).statusCode).toBe(403);
    const nav = await editor.get(`${base}/estates`);
    expect(nav.body).not.toContain(`${base}/api-keys`);
    expect(nav.body).not.toContain(`${base}/webhooks`);

    const noToken = await t.app.inject({
      method: 'POST',
      url: `${base}/api-keys`,
      headers: { cookie: `pps_session=${encodeURIComponent(admin.cookie)}`, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: formBody({ name: 'no token', kind: 'write' }),
    });
    expect(noToken.statusCode).toBe(403);
    const noHookToken = await t.app.inject({
      method: 'POST',
      url: `${base}/webhooks`,
      headers: { cookie: `pps_session=${encodeURIComponent(admin.cookie)}`, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: formBody({ url: `${receiver.url}/x`, events: '*' }),
    });
    expect(noHookToken.statusCode).toBe(403);
    expect((await keys()).length).toBe(before);
    expect(await hooks()).toEqual([]);
  });

  it('webhooks: a bad URL or no event is refused next to its field; created, the signing secret is shown once', async () => {
    const empty = await admin.get(`${base}/webhooks`);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('No webhooks.');

    const ftp = await admin.post(`${base}/webhooks`, { url: 'ftp://files.example.com/hook', events: '*' });
    expect(ftp.statusCode).toBe(422);
    expect(ftp.body).toContain('id="field-url-error"');
    expect(ftp.body).toContain('value="ftp://files.example.com/hook"');
    expect(ftp.body).not.toContain('Validation failed');
    const credentials = await admin.post(`${base}/webhooks`, { url: 'https://user:pw@hooks.example.com/', events: '*' });
    expect(credentials.statusCode).toBe(422);
    expect(credentials.body).toContain('must not contain credentials');
    const none = await admin.post(`${base}/webhooks`, { url: `${receiver.url}/a` });
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('id="field-events-error"');
    expect(await hooks()).toEqual([]);

    const created = await admin.post(`${base}/webhooks`, {
      url: `${receiver.url}/a`,
      events: ['estate.updated', 'page.updated'],
      description: 'CRM',
    });
    expect(created.statusCode, created.body).toBe(201);
    const secret = secretIn(created.body, 'whsec_');
    expect(secret).toBeTruthy();
    const [hook] = await hooks();
    expect(hook).toMatchObject({ url: `${receiver.url}/a`, events: ['estate.updated', 'page.updated'], description: 'CRM', enabled: true });
    const list = await admin.get(`${base}/webhooks`);
    expect(list.body).toContain(`href="${base}/webhooks/${hook!.id}"`);
    expect(list.body).not.toContain(secret!);
    const one = await admin.get(`${base}/webhooks/${hook!.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.body).not.toContain(secret!);
    expect(one.body).toMatch(/id="event-page.updated" name="events" value="page.updated" checked/);
  });

  it('webhooks: edit (refused URL next to its field), a failed delivery listed with its attempt, retried, then deleted', async () => {
    const [hook] = await hooks();
    const url = `${base}/webhooks/${hook!.id}`;
    const bad = await admin.post(url, { url: 'javascript:alert(1)', events: '*', enabled: 'true' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="field-url-error"');
    expect((await hooks())[0]!.url).toBe(`${receiver.url}/a`);

    const saved = await admin.post(url, { url: `${receiver.url}/b`, events: '*', description: '', enabled: 'true' });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`${url}?done=saved`);
    expect((await hooks())[0]).toMatchObject({ url: `${receiver.url}/b`, events: ['*'], description: null, enabled: true });

    receiver.answer = () => ({ status: 500 });
    const estate = await createEstate(t, a.key, { name: 'Hook Park' });
    const patched = await t.request({ method: 'PATCH', url: `/api/v1/estate/${estate.id}`, key: a.key, body: { description: 'Changed' } });
    expect(patched.statusCode, patched.body).toBe(200);
    await eventually(async () => {
      const log = await deliveries(hook!.id);
      return log.length >= 2 && log.every((d) => d.status === 'failed');
    }, 'two failed attempts');
    const page = await admin.get(url);
    expect(page.body).toContain('data-status="failed"');
    expect(page.body).toContain('>500<');
    const failed = (await deliveries(hook!.id))[0]!;
    expect(page.body).toContain(`${url}/deliveries/${failed.id}/retry`);

    receiver.answer = () => ({ status: 204 });
    const retried = await admin.post(`${url}/deliveries/${failed.id}/retry`, {});
    expect(retried.statusCode, retried.body).toBe(303);
    expect(retried.headers.location).toBe(`${url}?done=retried`);
    await eventually(async () => (await deliveries(hook!.id))[0]!.status === 'succeeded', 'the retried attempt');
    expect((await admin.get(url)).body).toContain('data-status="succeeded"');

    // Another organization's webhook and deliveries read as not existing.
    expect((await outsider.get(`/dashboard/o/${b.id}/webhooks/${hook!.id}`)).statusCode).toBe(404);
    expect((await outsider.post(`/dashboard/o/${b.id}/webhooks/${hook!.id}/delete`, {})).statusCode).toBe(404);
    expect((await outsider.post(`/dashboard/o/${b.id}/webhooks/${hook!.id}/deliveries/${failed.id}/retry`, {})).statusCode).toBe(404);

    const confirm = await admin.get(`${url}/delete`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Yes, delete it');
    const deleted = await admin.post(`${url}/delete`, {});
    expect(deleted.statusCode).toBe(303);
    expect(await hooks()).toEqual([]);
  });
});
