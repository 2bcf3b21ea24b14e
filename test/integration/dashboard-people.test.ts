import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type DashboardUser, ORIGIN, PASSWORD, browserOf, csrfOf, formBody, invite, joinAs, sessionCookieOf } from '../helpers/dashboard.js';

/** The dashboard's people (issue 35): invitations, accounts, sessions, CSRF, roles (both engines). */
describe('dashboard people', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let admin: DashboardUser;

  const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = { origin: ORIGIN }) =>
    t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: formBody(fields) });
  const signIn = (email: string, password: string, headers?: Record<string, string>) => postForm('/dashboard/sign-in', { email, password }, headers);

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('People A');
    b = await t.createOrg('People B');
    admin = await joinAs(t, a.id, 'admin@a.example', 'admin');
  });
  afterAll(() => t?.close());

  it('the operator invites by API: 201 with a single-use link; bad input 422 naming the field; no token 401; a key 403; unknown organization 404', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/admin/organizations/${a.id}/invitations`,
      key: ADMIN_TOKEN,
      body: { email: 'x@a.example', role: 'editor' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json() as { id: string; url: string; expiresAt: string };
    expect(body.url).toMatch(/^http:\/\/localhost:3000\/dashboard\/invitations\/[\w-]{43}$/);
    const days = (new Date(body.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const bad = await t.request({
      method: 'POST',
      url: `/api/v1/admin/organizations/${a.id}/invitations`,
      key: ADMIN_TOKEN,
      body: { email: 'x@a.example', role: 'owner' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('role');
    expect(
      (await t.request({ method: 'POST', url: `/api/v1/admin/organizations/${a.id}/invitations`, body: { email: 'x@a.example', role: 'admin' } })).statusCode,
    ).toBe(401);
    expect(
      (await t.request({ method: 'POST', url: `/api/v1/admin/organizations/${a.id}/invitations`, key: a.key, body: { email: 'x@a.example', role: 'admin' } }))
        .statusCode,
    ).toBe(403);
    const missing = await t.request({
      method: 'POST',
      url: '/api/v1/admin/organizations/00000000-0000-7000-8000-000000000000/invitations',
      key: ADMIN_TOKEN,
      body: { email: 'x@a.example', role: 'admin' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('invitation → account → session: the page asks for first name, last name and password; the cookie is HttpOnly, SameSite=Lax, on /dashboard; the link works once', async () => {
    const path = await invite(t, a.id, 'new.person@a.example', 'editor');
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    for (const label of ['First name', 'Last name', 'Password', 'Create account']) expect(page.body).toContain(label);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // Not the API's no-referrer: with it a browser posts the form with `Origin: null` and the Origin check refuses it.
    expect(page.headers['referrer-policy']).toBe('same-origin');

    const weak = await postForm(path, { firstName: 'New', lastName: 'Person', password: 'password1234' });
    expect(weak.statusCode).toBe(422);
    expect(weak.body).toContain('too common');
    expect(weak.body).toContain('value="New"');
    const short = await postForm(path, { firstName: '', lastName: 'Person', password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain('Enter your first name');
    expect(short.body).toContain('at least 12 characters');

    const ok = await postForm(path, { firstName: 'New', lastName: 'Person', password: PASSWORD });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(`/dashboard/o/${a.id}/estates`);
    const cookie = [ok.headers['set-cookie']].flat().find((c) => c?.startsWith('pps_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/dashboard(;|$)/);
    expect(cookie).not.toMatch(/Secure/i);
    expect(cookie).not.toMatch(/Domain=/i);
    const user = browserOf(t, sessionCookieOf(ok)!, a.id);
    const estates = await user.get(`/dashboard/o/${a.id}/estates`);
    expect(estates.statusCode).toBe(200);
    expect(estates.body).toContain('aria-label="Dashboard"');
    // Used: the same message as an unknown or expired link, and nothing is written.
    const again = await postForm(path, { firstName: 'Other', lastName: 'Person', password: PASSWORD });
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain('cannot be used');
    const unknown = await t.app.inject({ method: 'GET', url: '/dashboard/invitations/not-a-real-token' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('cannot be used');
    const [row] = await t.db.query<{ first_name: string; password_hash: string }>(
      "SELECT first_name, password_hash FROM users WHERE email = 'new.person@a.example'",
    );
    expect(row!.first_name).toBe('New');
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('an expired invitation gives the same message', async () => {
    const path = await invite(t, a.id, 'late@a.example', 'viewer');
    await t.db.query("UPDATE dashboard_invitations SET expires_at = now() - interval '1 second' WHERE email = 'late@a.example'");
    const res = await postForm(path, { firstName: 'Late', lastName: 'Person', password: PASSWORD });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('cannot be used');
    expect(await t.db.query("SELECT 1 FROM users WHERE email = 'late@a.example'")).toHaveLength(0);
  });

  it('the cookie is Secure when PUBLIC_URL is https', async () => {
    const s = await createTestApp({ env: { PUBLIC_URL: 'https://publisher.example.com' } });
    try {
      const org = await s.createOrg('Secure');
      const path = await invite(s, org.id, 'secure@s.example', 'admin');
      const res = await s.app.inject({
        method: 'POST',
        url: path,
        headers: { origin: 'https://publisher.example.com', 'content-type': 'application/x-www-form-urlencoded' },
        payload: formBody({ firstName: 'S', lastName: 'S', password: PASSWORD }),
      });
      expect(res.statusCode).toBe(303);
      expect([res.headers['set-cookie']].flat().find((c) => c?.startsWith('pps_session='))).toMatch(/; Secure/i);
    } finally {
      await s.close();
    }
  });

  it('sign-in: the right password starts a session; a wrong password and an unknown e-mail get the same message', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dashboard/sign-in' });
    expect(page.body).toMatch(/<label for="field-email">Email<\/label>/);
    expect(page.body).toMatch(/<label for="field-password">Password<\/label>/);
    expect(page.body).toContain('>Sign in</button>');
    const ok = await signIn('ADMIN@a.example ', PASSWORD);
    expect(ok.statusCode).toBe(303);
    expect(sessionCookieOf(ok)).toMatch(/^[\w-]{43}$/);
    const wrong = await signIn('admin@a.example', 'not the password at all');
    const unknown = await signIn('nobody@a.example', PASSWORD);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    const message = (html: string) => /<div class="error-summary"[^>]*>.*?<\/div>/s.exec(html)?.[0];
    expect(message(wrong.body)).toContain('e-mail address or password is not right');
    expect(message(wrong.body)).toBe(message(unknown.body));
    expect(sessionCookieOf(wrong)).toBeUndefined();
  });

  it('a sign-in from another Origin is 403 and starts no session', async () => {
    const res = await signIn('admin@a.example', PASSWORD, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toContain('text/html');
    expect(sessionCookieOf(res)).toBeUndefined();
  });

  it('too many failures for one account: 429 with Retry-After, even with the right password', async () => {
    await joinAs(t, a.id, 'target@a.example', 'viewer');
    for (let i = 0; i < 10; i++) expect((await signIn('target@a.example', `wrong password ${i}`)).statusCode).toBe(401);
    const limited = await signIn('target@a.example', PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('Too many failed sign-ins');
  });

  it('too many failures from one address: 429 for every account', async () => {
    const from = { origin: ORIGIN, 'x-forwarded-for': '203.0.113.9' };
    const s = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      for (let i = 0; i < 50; i++) await signInOn(s, `guess${i}@nowhere.example`, 'wrong password', from);
      expect((await signInOn(s, 'other@nowhere.example', 'wrong password', from)).statusCode).toBe(429);
    } finally {
      await s.close();
    }
  });

  it('a state-changing request without the CSRF token, or from another Origin, is 403 and writes nothing', async () => {
    const url = `/dashboard/o/${a.id}/account/name`;
    const cookie = `pps_session=${encodeURIComponent(admin.cookie)}`;
    const noToken = await postForm(url, { firstName: 'Mallory', lastName: 'X' }, { origin: ORIGIN, cookie });
    expect(noToken.statusCode).toBe(403);
    const wrongToken = await postForm(url, { _csrf: 'x'.repeat(43), firstName: 'Mallory', lastName: 'X' }, { origin: ORIGIN, cookie });
    expect(wrongToken.statusCode).toBe(403);
    const otherOrigin = await postForm(url, { _csrf: admin.csrf, firstName: 'Mallory', lastName: 'X' }, { origin: 'https://evil.example', cookie });
    expect(otherOrigin.statusCode).toBe(403);
    const noOrigin = await postForm(url, { _csrf: admin.csrf, firstName: 'Mallory', lastName: 'X' }, { cookie });
    expect(noOrigin.statusCode).toBe(403);
    expect(await t.db.query("SELECT 1 FROM users WHERE first_name = 'Mallory'")).toHaveLength(0);
    // With both, it works.
    const ok = await admin.post(url, { firstName: 'Ada', lastName: 'Admin' });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(`/dashboard/o/${a.id}/account?done=name`);
    expect((await admin.get(ok.headers.location as string)).body).toContain('Your name is saved.');
  });

  it('a signed-out visit of a screen goes to sign-in; another organization’s screens are 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/dashboard/o/${a.id}/estates` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/dashboard/sign-in?next=${encodeURIComponent(`/dashboard/o/${a.id}/estates`)}`);
    const other = await admin.get(`/dashboard/o/${b.id}/estates`);
    expect(other.statusCode).toBe(404);
    expect(other.headers['content-type']).toContain('text/html');
    expect(other.body).not.toContain(b.name);
    const write = await admin.post(`/dashboard/o/${b.id}/estates`, { name: 'Intruder' });
    expect(write.statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/v1/estate', key: b.key })).json()).toHaveLength(0);
  });

  it('roles: a viewer reads but cannot write (403, nothing written) and does not see Members; an editor cannot manage members', async () => {
    const viewer = await joinAs(t, a.id, 'viewer@a.example', 'viewer');
    expect((await viewer.get(`/dashboard/o/${a.id}/estates`)).statusCode).toBe(200);
    expect((await viewer.get(`/dashboard/o/${a.id}/estates`)).body).not.toContain('/members"');
    const res = await viewer.post(`/dashboard/o/${a.id}/estates`, { name: 'Viewer Estate' });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('needs the editor role');
    expect((await t.request({ method: 'GET', url: '/api/v1/estate', key: a.key })).json().map((e: { name: string }) => e.name)).not.toContain('Viewer Estate');
    const editor = await joinAs(t, a.id, 'editor@a.example', 'editor');
    expect((await editor.get(`/dashboard/o/${a.id}/members`)).statusCode).toBe(403);
    expect((await editor.post(`/dashboard/o/${a.id}/invitations`, { email: 'z@a.example', role: 'admin' })).statusCode).toBe(403);
    expect(await t.db.query("SELECT 1 FROM dashboard_invitations WHERE email = 'z@a.example'")).toHaveLength(0);
  });

  it('admins: invite from the dashboard (the link shown once), change a role, remove a member; never the last admin (409)', async () => {
    const invited = await admin.post(`/dashboard/o/${a.id}/invitations`, { email: 'bad address', role: 'editor' });
    expect(invited.statusCode).toBe(422);
    expect(invited.body).toContain('Enter an e-mail address');
    const made = await admin.post(`/dashboard/o/${a.id}/invitations`, { email: 'colleague@a.example', role: 'editor' });
    expect(made.statusCode).toBe(201);
    expect(made.body).toMatch(/http:\/\/localhost:3000\/dashboard\/invitations\/[\w-]{43}/);

    const members = await admin.get(`/dashboard/o/${a.id}/members`);
    const [adminRow] = await t.db.query<{ id: string }>(
      "SELECT m.id FROM organization_memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'admin@a.example' AND m.organization_id = $1",
      [a.id],
    );
    expect(members.body).toContain(adminRow!.id);
    const demote = await admin.post(`/dashboard/o/${a.id}/members/${adminRow!.id}/role`, { role: 'editor' });
    expect(demote.statusCode).toBe(409);
    expect(demote.body).toContain('at least one admin');
    const remove = await admin.post(`/dashboard/o/${a.id}/members/${adminRow!.id}/remove`, {});
    expect(remove.statusCode).toBe(409);

    const [viewerRow] = await t.db.query<{ id: string }>(
      "SELECT m.id FROM organization_memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'viewer@a.example' AND m.organization_id = $1",
      [a.id],
    );
    const promoted = await admin.post(`/dashboard/o/${a.id}/members/${viewerRow!.id}/role`, { role: 'admin' });
    expect(promoted.statusCode).toBe(303);
    const [after] = await t.db.query<{ dashboard_role: string; role: string }>('SELECT dashboard_role, role FROM organization_memberships WHERE id = $1', [
      viewerRow!.id,
    ]);
    expect(after).toEqual({ dashboard_role: 'admin', role: 'admin' });
    expect((await admin.post(`/dashboard/o/${a.id}/members/${viewerRow!.id}/remove`, {})).statusCode).toBe(303);
    expect(await t.db.query('SELECT 1 FROM organization_memberships WHERE id = $1', [viewerRow!.id])).toHaveLength(0);
    // Another organization's membership id reads as not found.
    const bAdmin = await joinAs(t, b.id, 'admin@b.example', 'admin');
    const [bRow] = await t.db.query<{ id: string }>('SELECT id FROM organization_memberships WHERE organization_id = $1', [b.id]);
    expect((await admin.post(`/dashboard/o/${a.id}/members/${bRow!.id}/remove`, {})).statusCode).toBe(404);
    expect((await bAdmin.get(`/dashboard/o/${b.id}/members`)).statusCode).toBe(200);
  });

  it('a password change ends every other session; sign-out ends this one', async () => {
    const user = await joinAs(t, a.id, 'changer@a.example', 'editor');
    const other = browserOf(t, sessionCookieOf(await signIn('changer@a.example', PASSWORD))!, a.id);
    expect((await other.get(`/dashboard/o/${a.id}/account`)).statusCode).toBe(200);
    const wrong = await user.post(`/dashboard/o/${a.id}/account/password`, { currentPassword: 'not it at all', newPassword: 'another long passphrase 7' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.body).toContain('The current password is not right.');
    const changed = await user.post(`/dashboard/o/${a.id}/account/password`, { currentPassword: PASSWORD, newPassword: 'another long passphrase 7' });
    expect(changed.statusCode).toBe(303);
    expect((await other.get(`/dashboard/o/${a.id}/account`)).statusCode).toBe(303);
    expect((await user.get(`/dashboard/o/${a.id}/account`)).statusCode).toBe(200);
    expect((await signIn('changer@a.example', PASSWORD)).statusCode).toBe(401);
    user.csrf = csrfOf((await user.get(`/dashboard/o/${a.id}/account`)).body);
    const out = await user.post('/dashboard/sign-out', {});
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/dashboard/sign-in');
    expect((await user.get(`/dashboard/o/${a.id}/account`)).statusCode).toBe(303);
  });

  it('an admin withdraws an open invitation: its link stops working', async () => {
    const made = await admin.post(`/dashboard/o/${a.id}/invitations`, { email: 'withdrawn@a.example', role: 'viewer' });
    const link = new URL(/http:\/\/localhost:3000(\/dashboard\/invitations\/[\w-]{43})/.exec(made.body)![1]!, ORIGIN).pathname;
    const [row] = await t.db.query<{ id: string }>("SELECT id FROM dashboard_invitations WHERE email = 'withdrawn@a.example'");
    expect((await admin.get(`/dashboard/o/${a.id}/members`)).body).toContain('withdrawn@a.example');
    const res = await admin.post(`/dashboard/o/${a.id}/invitations/${row!.id}/revoke`, {});
    expect(res.statusCode).toBe(303);
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(404);
    expect((await admin.post(`/dashboard/o/${a.id}/invitations/${row!.id}/revoke`, {})).statusCode).toBe(404);
  });

  it('someone who already has an account joins another organization with their password', async () => {
    const path = await invite(t, b.id, 'admin@a.example', 'editor');
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.body).toContain('Join organization');
    expect(page.body).not.toContain('First name');
    const failures = async () =>
      (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM dashboard_sign_in_failures WHERE subject = 'account:admin@a.example'"))[0]!.n;
    const before = await failures();
    const wrong = await postForm(path, { password: 'not the password at all' });
    expect(wrong.statusCode).toBe(422);
    // Guessing through an invitation counts as a failed sign-in of the account.
    expect(await failures()).toBe(before + 1);
    expect(wrong.body).toContain('The password is not right.');
    const ok = await postForm(path, { password: PASSWORD });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(`/dashboard/o/${b.id}/estates`);
    const user = browserOf(t, sessionCookieOf(ok)!, b.id);
    const shell = await user.get(`/dashboard/o/${b.id}/estates`);
    expect(shell.body).toContain('id="organization-switch"');
  });

  it('a user made by the operator API becomes a member when invited by the same e-mail', async () => {
    const made = await t.request({
      method: 'POST',
      url: `/api/v1/admin/organizations/${a.id}/users`,
      key: ADMIN_TOKEN,
      body: { email: 'agent@a.example', firstName: 'Old' },
    });
    expect(made.statusCode).toBe(201);
    const user = await joinAs(t, a.id, 'agent@a.example', 'editor');
    expect((await user.get(`/dashboard/o/${a.id}/estates`)).statusCode).toBe(200);
    const rows = await t.db.query<{ id: string }>("SELECT id FROM users WHERE lower(email) = 'agent@a.example'");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(made.json().id);
  });
});

function signInOn(t: TestApp, email: string, password: string, headers: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: formBody({ email, password }),
  });
}
