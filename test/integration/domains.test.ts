import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type TestDns, startTestDns } from '../helpers/dns-server.js';
import { createEstate } from '../helpers/factories.js';

interface Domain {
  hostname: string;
  estateId: string;
  status: string;
  verification: { txtName: string; txtValue: string };
  url: string;
  verifiedAt: string | null;
  checkedAt: string | null;
}

describe('your own domain: the domains API (issue 37)', () => {
  let t: TestApp;
  let dns: TestDns;
  let a: TestOrg;
  let b: TestOrg;
  let estate: string;
  let other: string;
  const base = (estateId = estate) => `/api/v1/estates/${estateId}/domains`;
  const add = (hostname: unknown, key = a.key, estateId = estate) => t.request({ method: 'POST', url: base(estateId), key, body: { hostname } });
  const verify = (hostname: string, key = a.key, estateId = estate) =>
    t.request({ method: 'POST', url: `${base(estateId)}/${encodeURIComponent(hostname)}/verify`, key });
  const events = async (orgId: string, type: string) =>
    (await t.db.query<{ body: string }>('SELECT body FROM webhook_events WHERE organization_id = $1 AND type = $2 ORDER BY id', [orgId, type])).map(
      (r) => JSON.parse(r.body) as { type: string; data: Domain },
    );

  beforeAll(async () => {
    dns = await startTestDns();
    t = await createTestApp({ env: { PUBLIC_URL: 'https://pages.publisher.example', DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '500' } });
    a = await t.createOrg('Domains A');
    b = await t.createOrg('Domains B');
    estate = (await createEstate(t, a.key, { name: 'Lindenpark' })).id;
    other = (await createEstate(t, a.key, { name: 'Second' })).id;
    await t.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      key: a.key,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['domain.verified', 'domain.removed', 'domain.unverified'] },
    });
  });
  afterAll(async () => {
    await t?.close();
    await dns?.stop();
  });

  it('adds a hostname as pending with the TXT record to create; an IDN is stored as punycode', async () => {
    const res = await add('Homes.Lindenpark.Example');
    expect(res.statusCode, res.body).toBe(201);
    const domain = res.json() as Domain;
    expect(domain).toMatchObject({
      hostname: 'homes.lindenpark.example',
      estateId: estate,
      status: 'pending',
      url: 'https://homes.lindenpark.example/',
      verifiedAt: null,
    });
    expect(domain.verification.txtName).toBe('_pps-challenge.homes.lindenpark.example');
    expect(domain.verification.txtValue).toMatch(/^pps-verification=[\w-]{32}$/);

    const idn = await add('bücher.lindenpark.example.');
    expect(idn.statusCode, idn.body).toBe(201);
    expect(idn.json().hostname).toBe('xn--bcher-kva.lindenpark.example');

    const list = await t.request({ method: 'GET', url: base(), key: a.key });
    expect(list.statusCode).toBe(200);
    expect((list.json() as Domain[]).map((d) => d.hostname)).toEqual(['homes.lindenpark.example', 'xn--bcher-kva.lindenpark.example']);
    expect((await t.request({ method: 'GET', url: base(other), key: a.key })).json()).toEqual([]);
  });

  it('refuses each kind of bad hostname with a 422 naming it', async () => {
    const cases: Array<[string, string]> = [
      ['192.0.2.10', 'ip-address'],
      ['[2001:db8::1]', 'ip-address'],
      ['2001:db8::1', 'ip-address'],
      ['127.1', 'ip-address'],
      ['co.uk', 'public-suffix'],
      ['github.io', 'public-suffix'],
      ['example', 'single-label'],
      ['pages.publisher.example', 'own-host'],
      [`${'a'.repeat(62)}.${'b'.repeat(62)}.${'c'.repeat(62)}.${'d'.repeat(62)}.example`, 'too-long'],
      ['homes..example', 'not-a-hostname'],
      ['-homes.example', 'not-a-hostname'],
      ['homes_1.example', 'not-a-hostname'],
      ['homes.example/path', 'not-a-hostname'],
      ['https://homes.example', 'not-a-hostname'],
      [`${'a'.repeat(64)}.example`, 'not-a-hostname'],
    ];
    for (const [hostname, kind] of cases) {
      const message = expectError(await add(hostname), 422);
      expect(message, hostname).toContain('hostname');
      expect(message, hostname).toContain(`(${kind})`);
    }
    expectError(await add(''), 422, /hostname/);
    expectError(await add(42), 422, /hostname/);
    expectError(await t.request({ method: 'POST', url: base(), key: a.key, body: {} }), 422, /hostname/);
    expectError(await t.request({ method: 'POST', url: base(), key: a.key, body: { hostname: 'x.example', extra: 1 } }), 422, /extra/);
    // A name under a public suffix is fine, even a private one.
    expect((await add('lindenpark.github.io', a.key, other)).statusCode).toBe(201);
  });

  it('gives a hostname to one estate in the whole service: 409 for another estate or organization', async () => {
    expectError(await add('homes.lindenpark.example', a.key, other), 409, /already connected/);
    const theirs = (await createEstate(t, b.key, { name: 'Theirs' })).id;
    expectError(await add('HOMES.lindenpark.example', b.key, theirs), 409, /already connected/);
    expect((await add('theirs.example.org', b.key, theirs)).statusCode).toBe(201);
    expectError(await add('theirs.example.org', a.key), 409);
  });

  it('verifies through the DNS server of DNS_SERVERS: missing, then wrong, then right', async () => {
    const domain = ((await t.request({ method: 'GET', url: base(), key: a.key })).json() as Domain[])[0]!;
    const name = domain.verification.txtName;

    const missing = expectError(await verify(domain.hostname), 422);
    expect(missing).toContain(`${name} has no TXT record`);
    expect(missing).toContain(domain.verification.txtValue);

    await dns.setTxt(name, 'pps-verification=somebody-else');
    await dns.setTxt(name, 'v=spf1 -all');
    const wrong = expectError(await verify(domain.hostname), 422);
    expect(wrong).toContain('2 TXT records');
    expect(wrong).toContain('"pps-verification=somebody-else"');
    expect(wrong).toContain('"v=spf1 -all"');
    let listed = (await t.request({ method: 'GET', url: base(), key: a.key })).json() as Domain[];
    expect(listed[0]).toMatchObject({ status: 'pending', verifiedAt: null });
    expect(listed[0]!.checkedAt).not.toBeNull();
    expect(await events(a.id, 'domain.verified')).toEqual([]);

    await dns.setTxt(name, domain.verification.txtValue);
    const ok = await verify(domain.hostname.toUpperCase());
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ hostname: domain.hostname, status: 'verified' });
    expect(ok.json().verifiedAt).not.toBeNull();
    listed = (await t.request({ method: 'GET', url: base(), key: a.key })).json() as Domain[];
    expect(listed[0]!.status).toBe('verified');

    // Verified again: no second event.
    expect((await verify(domain.hostname)).statusCode).toBe(200);
    const sent = await events(a.id, 'domain.verified');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data).toMatchObject({ hostname: domain.hostname, status: 'verified', estateId: estate });
  });

  it('answers 503 when the DNS server does not answer, and changes nothing', async () => {
    const silent = await createTestApp({ env: { DNS_SERVERS: '127.0.0.1:9', DNS_TIMEOUT_MS: '200' } });
    try {
      const org = await silent.createOrg('Silent');
      const id = (await createEstate(silent, org.key)).id;
      await silent.request({ method: 'POST', url: `/api/v1/estates/${id}/domains`, key: org.key, body: { hostname: 'quiet.example.net' } });
      const res = await silent.request({ method: 'POST', url: `/api/v1/estates/${id}/domains/quiet.example.net/verify`, key: org.key });
      expectError(res, 503, /DNS lookup of _pps-challenge\.quiet\.example\.net failed/);
      expect(res.headers['retry-after']).toBe('30');
      const listed = (await silent.request({ method: 'GET', url: `/api/v1/estates/${id}/domains`, key: org.key })).json() as Domain[];
      expect(listed[0]).toMatchObject({ status: 'pending', checkedAt: null });
    } finally {
      await silent.close();
    }
  });

  it('keeps another organization out (404), and answers 401 without a key, 403 with a read key for writes', async () => {
    const hostname = 'homes.lindenpark.example';
    expectError(await t.request({ method: 'GET', url: base(), key: b.key }), 404);
    expectError(await add('x.lindenpark.example', b.key), 404);
    expectError(await verify(hostname, b.key), 404);
    expectError(await t.request({ method: 'DELETE', url: `${base()}/${hostname}`, key: b.key }), 404);
    // Their own estate, our hostname: not theirs either.
    const theirs = (await createEstate(t, b.key, { name: 'Theirs 2' })).id;
    expectError(await verify(hostname, b.key, theirs), 404);
    expectError(await t.request({ method: 'GET', url: base() }), 401);
    expectError(await t.request({ method: 'POST', url: base(), body: { hostname: 'y.example.com' } }), 401);
    expectError(await t.request({ method: 'POST', url: `${base()}/${hostname}/verify` }), 401);
    expectError(await t.request({ method: 'DELETE', url: `${base()}/${hostname}` }), 401);
    const read = (await t.issueKey(a.id, ['read'])).key;
    expect((await t.request({ method: 'GET', url: base(), key: read })).statusCode).toBe(200);
    expectError(await add('z.lindenpark.example', read), 403);
    expectError(await t.request({ method: 'GET', url: base('not-a-uuid'), key: a.key }), 404);
    expectError(await verify('nothing.lindenpark.example'), 404);
    expectError(await verify(`${'x'.repeat(300)}.example`), 404);
  });

  it('limits an estate to 20 hostnames', async () => {
    const crowded = (await createEstate(t, a.key, { name: 'Crowded' })).id;
    for (let i = 0; i < 20; i++) expect((await add(`h${i}.crowded.example`, a.key, crowded)).statusCode).toBe(201);
    expectError(await add('h20.crowded.example', a.key, crowded), 422, /at most 20 hostnames/);
  });

  it('removes a hostname with domain.removed; then another estate may have it', async () => {
    const res = await t.request({ method: 'DELETE', url: `${base()}/xn--bcher-kva.lindenpark.example`, key: a.key });
    expect(res.statusCode, res.body).toBe(204);
    expectError(await t.request({ method: 'DELETE', url: `${base()}/xn--bcher-kva.lindenpark.example`, key: a.key }), 404);
    const removed = await events(a.id, 'domain.removed');
    expect(removed.map((e) => e.data.hostname)).toEqual(['xn--bcher-kva.lindenpark.example']);
    // The IDN spelling names the same hostname.
    expect((await add('bücher.lindenpark.example', a.key, other)).statusCode).toBe(201);
    expect((await t.request({ method: 'DELETE', url: `${base(other)}/${encodeURIComponent('bücher.lindenpark.example')}`, key: a.key })).statusCode).toBe(204);
  });
});
