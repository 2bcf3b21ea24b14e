import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type DashboardUser, joinAs } from '../helpers/dashboard.js';
import { type TestDns, startTestDns } from '../helpers/dns-server.js';
import { createEstate } from '../helpers/factories.js';

type Domain = { hostname: string; status: string; verification: { txtName: string; txtValue: string } };

/** The dashboard's Domains screen (issue 37) through app.inject, verifying against pebble-challtestsrv (both engines). */
describe('dashboard: domains', () => {
  let dns: TestDns;
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let admin: DashboardUser;
  let editor: DashboardUser;
  let estate: string;
  let base: string;

  const listed = async (org = a, estateId = estate) =>
    (await t.request({ method: 'GET', url: `/api/v1/estates/${estateId}/domains`, key: org.key })).json() as Domain[];
  const decode = (html: string) => html.replace(/&quot;/g, '"').replace(/&amp;/g, '&');

  beforeAll(async () => {
    dns = await startTestDns();
    t = await createTestApp({ env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '500' } });
    a = await t.createOrg('Domains Screen A');
    b = await t.createOrg('Domains Screen B');
    admin = await joinAs(t, a.id, 'admin@domains-screen.example', 'admin');
    editor = await joinAs(t, a.id, 'editor@domains-screen.example', 'editor');
    estate = (await createEstate(t, a.key, { name: 'Lindenpark' })).id;
    base = `/dashboard/o/${a.id}`;
  });
  afterAll(async () => {
    await t?.close();
    await dns?.stop();
  });

  it('an admin adds a hostname: pending, with the TXT record to copy; a bad hostname is refused next to the field', async () => {
    const empty = await admin.get(`${base}/domains`);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('Lindenpark');
    expect(empty.body).toContain('Add domain');
    expect(empty.body).toContain('href="/dashboard/o/' + a.id + '/domains"');

    const bad = await admin.post(`${base}/domains`, { estateId: estate, hostname: '192.0.2.7' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="field-hostname-error"');
    expect(bad.body).toContain('value="192.0.2.7"');
    expect(bad.body).not.toContain('Validation failed');
    const suffix = await admin.post(`${base}/domains`, { estateId: estate, hostname: 'co.uk' });
    expect(suffix.statusCode).toBe(422);
    expect(suffix.body).toContain('id="field-hostname-error"');
    const blank = await admin.post(`${base}/domains`, { estateId: estate, hostname: ' ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.body).toContain('Enter the hostname');
    expect(await listed()).toEqual([]);

    const added = await admin.post(`${base}/domains`, { estateId: estate, hostname: 'Homes.Lindenpark.Example' });
    expect(added.statusCode, added.body).toBe(303);
    expect(added.headers.location).toBe(`${base}/domains?done=added`);
    const [domain] = await listed();
    expect(domain).toMatchObject({ hostname: 'homes.lindenpark.example', status: 'pending' });
    const page = await admin.get(added.headers.location as string);
    expect(page.body).toContain('The hostname is added.');
    expect(page.body).toContain('homes.lindenpark.example');
    expect(page.body).toContain('data-status="pending"');
    expect(page.body).toMatch(
      /<label for="txt-name-0">TXT record name<\/label><input id="txt-name-0" readonly(="")? value="_pps-challenge\.homes\.lindenpark\.example"/,
    );
    expect(page.body).toContain(`value="${domain!.verification.txtValue}"`);
  });

  it('409 when the hostname is connected to another estate, shown next to the field', async () => {
    const theirs = (await createEstate(t, b.key, { name: 'Elsewhere' })).id;
    const res = await t.request({ method: 'POST', url: `/api/v1/estates/${theirs}/domains`, key: b.key, body: { hostname: 'taken.elsewhere.example' } });
    expect(res.statusCode).toBe(201);
    const dup = await admin.post(`${base}/domains`, { estateId: estate, hostname: 'TAKEN.elsewhere.example' });
    expect(dup.statusCode).toBe(409);
    expect(dup.body).toContain('id="field-hostname-error"');
    expect(dup.body).toContain('This hostname is connected to another estate.');

    // Another organization's estate or domain reads as not existing.
    const foreignEstate = await admin.post(`${base}/domains`, { estateId: theirs, hostname: 'mine.lindenpark.example' });
    expect(foreignEstate.statusCode).toBe(422);
    expect(foreignEstate.body).toContain('id="field-estateId-error"');
    expect((await listed(b, theirs)).map((d) => d.hostname)).toEqual(['taken.elsewhere.example']);
    expect((await admin.get(`${base}/domains/${theirs}/taken.elsewhere.example/remove`)).statusCode).toBe(404);
    expect((await admin.post(`${base}/domains/${theirs}/taken.elsewhere.example/remove`, {})).statusCode).toBe(404);
    expect((await admin.post(`${base}/domains/${theirs}/taken.elsewhere.example/verify`, {})).statusCode).toBe(404);
    expect((await admin.post(`${base}/domains/${estate}/taken.elsewhere.example/remove`, {})).statusCode).toBe(404);
    expect((await admin.get(`/dashboard/o/${b.id}/domains`)).statusCode).toBe(404);
    expect((await listed(b, theirs)).map((d) => d.hostname)).toEqual(['taken.elsewhere.example']);
  });

  it('verify: a missing or wrong record says what DNS answered next to the hostname; the right one verifies', async () => {
    const [domain] = await listed();
    const url = `${base}/domains/${estate}/${domain!.hostname}/verify`;
    const missing = await admin.post(url, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.body).toContain('role="alert"');
    expect(missing.body).toContain(`DNS answered: ${domain!.verification.txtName} has no TXT record`);
    expect((await listed())[0]!.status).toBe('pending');

    await dns.setTxt(domain!.verification.txtName, 'pps-verification=somebody-else');
    const wrong = await admin.post(url, {});
    expect(wrong.statusCode).toBe(422);
    expect(decode(wrong.body)).toContain('1 TXT record ("pps-verification=somebody-else"), none of them the value to set');

    await dns.setTxt(domain!.verification.txtName, domain!.verification.txtValue);
    const ok = await admin.post(url, {});
    expect(ok.statusCode, ok.body).toBe(303);
    expect(ok.headers.location).toBe(`${base}/domains?done=verified`);
    expect((await listed())[0]!.status).toBe('verified');
    const page = await admin.get(ok.headers.location as string);
    expect(page.body).toContain('data-status="verified"');
    expect(page.body).toContain('The hostname is verified');
  });

  it('verify when the DNS server does not answer: 503, said next to the hostname, nothing changed', async () => {
    const silent = await createTestApp({ env: { DNS_SERVERS: '127.0.0.1:9', DNS_TIMEOUT_MS: '200' } });
    try {
      const org = await silent.createOrg('Domains Screen Silent');
      const user = await joinAs(silent, org.id, 'admin@domains-silent.example', 'admin');
      const id = (await createEstate(silent, org.key, { name: 'Quiet' })).id;
      const where = `/dashboard/o/${org.id}/domains`;
      expect((await user.post(where, { estateId: id, hostname: 'quiet.homes.example' })).statusCode).toBe(303);
      const res = await user.post(`${where}/${id}/quiet.homes.example/verify`, {});
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('id="domain-0-error"');
      expect(res.body).toContain('Could not check now: the DNS lookup of _pps-challenge.quiet.homes.example failed');
      expect(res.body).toContain('data-status="pending"');
    } finally {
      await silent.close();
    }
  });

  it('an editor neither sees nor uses the page', async () => {
    const nav = await editor.get(`${base}/estates`);
    expect(nav.statusCode).toBe(200);
    expect(nav.body).not.toContain(`${base}/domains`);
    expect((await editor.get(`${base}/domains`)).statusCode).toBe(403);
    expect((await editor.post(`${base}/domains`, { estateId: estate, hostname: 'editor.lindenpark.example' })).statusCode).toBe(403);
    expect((await editor.post(`${base}/domains/${estate}/homes.lindenpark.example/remove`, {})).statusCode).toBe(403);
    expect((await listed()).map((d) => d.hostname)).toEqual(['homes.lindenpark.example']);
  });

  it('a post without the CSRF token is refused and changes nothing', async () => {
    const forged = await admin.post(`${base}/domains`, { _csrf: 'x'.repeat(43), estateId: estate, hostname: 'forged.lindenpark.example' });
    expect(forged.statusCode).toBe(403);
    const removal = await admin.post(`${base}/domains/${estate}/homes.lindenpark.example/remove`, { _csrf: '' });
    expect(removal.statusCode).toBe(403);
    expect((await listed()).map((d) => d.hostname)).toEqual(['homes.lindenpark.example']);
  });

  it('remove asks first on a page of its own, then removes', async () => {
    const confirm = await admin.get(`${base}/domains/${estate}/homes.lindenpark.example/remove`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(`action="${base}/domains/${estate}/homes.lindenpark.example/remove"`);
    expect(confirm.body).toContain('Yes, remove homes.lindenpark.example');
    expect(confirm.body).toContain(`href="${base}/domains"`);
    expect((await listed()).length).toBe(1);

    const removed = await admin.post(`${base}/domains/${estate}/homes.lindenpark.example/remove`, {});
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe(`${base}/domains?done=removed`);
    expect(await listed()).toEqual([]);
    expect((await admin.get(removed.headers.location as string)).body).toContain('The hostname is removed');
    expect((await admin.post(`${base}/domains/${estate}/homes.lindenpark.example/remove`, {})).statusCode).toBe(404);
  });
});
