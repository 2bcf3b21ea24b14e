import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type TestDns, startTestDns } from '../helpers/dns-server.js';
import { type SeededPage, formBody, seedPage } from '../helpers/page-seed.js';

const HOST = 'homes.lindenpark.example';
const OTHER_HOST = 'homes.riverside.example';

describe('your own domain: routing by Host, the TLS ask, re-verification (issue 37)', () => {
  let t: TestApp;
  let dns: TestDns;
  let a: TestOrg;
  let b: TestOrg;
  let seed: SeededPage;
  let otherSeed: SeededPage;
  const on = (host: string, url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { host, ...headers } });
  const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
  const ask = (domain: string) =>
    t.app.inject({ method: 'GET', url: `/internal/tls/allowed?domain=${encodeURIComponent(domain)}`, headers: { host: '127.0.0.1:3000' } });

  /** Adds `hostname` to the estate and verifies it through the test's DNS server. */
  async function connect(org: TestOrg, estateId: string, hostname: string): Promise<{ txtName: string; txtValue: string }> {
    const added = await t.request({ method: 'POST', url: `/api/v1/estates/${estateId}/domains`, key: org.key, body: { hostname } });
    expect(added.statusCode, added.body).toBe(201);
    const record = added.json().verification as { txtName: string; txtValue: string };
    await dns.setTxt(record.txtName, record.txtValue);
    const verified = await t.request({ method: 'POST', url: `/api/v1/estates/${estateId}/domains/${hostname}/verify`, key: org.key });
    expect(verified.statusCode, verified.body).toBe(200);
    return record;
  }

  beforeAll(async () => {
    dns = await startTestDns();
    t = await createTestApp({
      env: { PUBLIC_URL: 'https://pages.publisher.example', DNS_SERVERS: dns.server, DOMAIN_RECHECK_INTERVAL: '1h', DOMAIN_RECHECK_GRACE: '3d' },
    });
    a = await t.createOrg('Routing A');
    b = await t.createOrg('Routing B');
    seed = await seedPage(t, a.id, a.key, 6, 'Lindenpark');
    otherSeed = await seedPage(t, b.id, b.key, 4, 'Riverside');
    for (const [org, s] of [
      [a, seed],
      [b, otherSeed],
    ] as const) {
      const on = await t.request({ method: 'PUT', url: `/api/v1/estates/${s.estateId}/page`, key: org.key, body: { enabled: true } });
      expect(on.statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
    await dns?.stop();
  });

  it('serves nothing on a hostname before it is verified: the 404 page, and no certificate', async () => {
    const added = await t.request({ method: 'POST', url: `/api/v1/estates/${seed.estateId}/domains`, key: a.key, body: { hostname: HOST } });
    expect(added.statusCode).toBe(201);
    const res = await on(HOST, '/');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).not.toContain('Lindenpark');
    expect((await ask(HOST)).statusCode).toBe(404);
    await t.request({ method: 'DELETE', url: `/api/v1/estates/${seed.estateId}/domains/${HOST}`, key: a.key });
  });

  it('a verified hostname serves its estate’s page at /, canonical on that hostname, and /p/{slug} names it as canonical', async () => {
    const before = await on('pages.publisher.example', `/p/${seed.slug}`);
    expect(canonicalOf(before.body)).toBe(`https://pages.publisher.example/p/${seed.slug}`);
    await connect(a, seed.estateId, HOST);
    await connect(b, otherSeed.estateId, OTHER_HOST);

    const page = await on(HOST, '/');
    expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
    expect(page.body).toContain('Lindenpark');
    expect(page.body).not.toContain('Riverside');
    expect(canonicalOf(page.body)).toBe(`https://${HOST}/`);
    expect(page.body).toContain('action="/inquiry"');
    expect(page.body).not.toContain(`/p/${seed.slug}`);
    // The same page on the service's host names the hostname as canonical, with its own links.
    const ours = await on('pages.publisher.example', `/p/${seed.slug}`);
    expect(ours.statusCode).toBe(200);
    expect(canonicalOf(ours.body)).toBe(`https://${HOST}/`);
    expect(ours.body).toContain(`action="/p/${seed.slug}/inquiry"`);

    // Each host its own HTML, however the cache was filled (the other estate's host, then this one again).
    const other = await on(OTHER_HOST, '/');
    expect(other.statusCode).toBe(200);
    expect(other.body).toContain('Riverside');
    expect(other.body).not.toContain('Lindenpark');
    expect(canonicalOf(other.body)).toBe(`https://${OTHER_HOST}/`);
    expect((await on(HOST, '/')).body).toBe(page.body);
    // A Host with a port, upper case or a trailing dot is the same hostname.
    expect((await on(`${HOST.toUpperCase()}.:443`, '/')).body).toBe(page.body);
  });

  it('on the hostname: the homes (variants), the preview, the static files, embed.js and its frame', async () => {
    const home = seed.apartments.find((x) => x.status === 'ACTIVE')!;
    const asked = await on(HOST, `/?apartment=${home.id}`);
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain(home.name);
    const filtered = await on(HOST, '/?status=SOLD');
    expect(filtered.statusCode).toBe(200);
    expect(canonicalOf(filtered.body)).toBe(`https://${HOST}/`);
    // Another estate's page is never reached through this hostname.
    expect((await on(HOST, `/p/${otherSeed.slug}`)).statusCode).toBe(404);
    // embed.js frames /p/{slug} of the script's origin: on the hostname that is this estate's page.
    const framed = await on(HOST, `/p/${seed.slug}`);
    expect(framed.statusCode).toBe(200);
    expect(canonicalOf(framed.body)).toBe(`https://${HOST}/`);
    const embed = await on(HOST, '/embed.js');
    expect(embed.statusCode).toBe(200);
    expect(embed.headers['content-type']).toMatch(/javascript/);
    const script = /<script type="module" src="([^"]+)"/.exec(framed.body)?.[1];
    expect(script).toMatch(/^\/assets\/page\//);
    expect((await on(HOST, script!)).statusCode).toBe(200);
    const preview = await t.request({ method: 'POST', url: `/api/v1/estates/${seed.estateId}/page/preview`, key: a.key });
    const token = new URL(preview.json().url).searchParams.get('preview')!;
    const previewed = await on(HOST, `/?preview=${encodeURIComponent(token)}`);
    expect(previewed.statusCode).toBe(200);
    expect(previewed.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect((await on(HOST, '/?preview=1.bad')).statusCode).toBe(404);
  });

  it('the form posts on the hostname and thanks there', async () => {
    const posted = await t.app.inject({
      method: 'POST',
      url: '/inquiry',
      headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
      payload: formBody({ name: 'Ada Buyer', email: 'ada@example.com', info: 'By the custom host' }),
    });
    expect(posted.statusCode, posted.body.slice(0, 300)).toBe(303);
    expect(posted.headers.location).toBe('/?sent=1#inquiry');
    const stored = await t.db.query<{ estate_id: string }>("SELECT estate_id FROM inquiries WHERE info = 'By the custom host'");
    expect(stored.map((r) => r.estate_id)).toEqual([seed.estateId]);
    const thanks = await on(HOST, '/?sent=1');
    expect(thanks.statusCode).toBe(200);
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/inquiry',
      headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
      payload: formBody({ name: '', email: 'not-an-email' }),
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.body).toContain('action="/inquiry"');
  });

  it('follows the estate when its slug is renamed, at once (no notification needed)', async () => {
    expect((await t.request({ method: 'PATCH', url: `/api/v1/estate/${seed.estateId}`, key: a.key, body: { slug: 'lindenpark-renamed' } })).statusCode).toBe(
      200,
    );
    const page = await on(HOST, '/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Lindenpark');
    expect((await on(HOST, '/p/lindenpark-renamed')).statusCode).toBe(200);
    expect((await on(HOST, `/p/${seed.slug}`)).statusCode).toBe(404);
    expect((await t.request({ method: 'PATCH', url: `/api/v1/estate/${seed.estateId}`, key: a.key, body: { slug: seed.slug } })).statusCode).toBe(200);
    expect((await on(HOST, '/')).statusCode).toBe(200);
    expect((await on(HOST, `/p/${seed.slug}`)).statusCode).toBe(200);
  });

  it('the API, /docs, /files and the TLS ask answer on the service’s own host only; an unknown host gets the 404 page', async () => {
    for (const url of [
      '/api/v1/estates/' + seed.estateId + '/page',
      '/api/v1/openapi.json',
      '/docs',
      '/files/x/y',
      '/dashboard',
      '/internal/tls/allowed?domain=' + HOST,
    ]) {
      const res = await on(HOST, url, { authorization: `Bearer ${a.key}` });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).not.toContain('Lindenpark');
    }
    for (const url of ['/', '/p/' + seed.slug, '/api/v1/openapi.json', '/embed.js']) {
      const res = await on('unknown.example.net', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
    }
    // Health answers on any host (probes); the service's own hosts keep everything.
    expect((await on('unknown.example.net', '/health')).statusCode).toBe(200);
    expect((await on(HOST, '/health')).statusCode).toBe(200);
    for (const host of ['pages.publisher.example', 'localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'api-1:3000']) {
      expect((await t.request({ method: 'GET', url: `/api/v1/estates/${seed.estateId}/domains`, key: a.key, headers: { host } })).statusCode, host).toBe(200);
    }
  });

  it('an unknown host answered before its body arrived does not keep the connection for the rest of it', async () => {
    const net = await import('node:net');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => {
      received += d.toString();
    });
    socket.write('POST /inquiry HTTP/1.1\r\nHost: unknown.example.net\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nname=');
    const closed = await new Promise<boolean>((resolve) => {
      socket.on('close', () => resolve(true));
      setTimeout(() => resolve(false), 10_000).unref();
    });
    if (!closed) socket.destroy();
    expect(closed).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 404/);
    expect(received.toLowerCase()).toContain('connection: close');
  });

  it('GET /internal/tls/allowed: 200 for a verified hostname and the service’s own host, 404 otherwise', async () => {
    expect((await ask(HOST)).statusCode).toBe(200);
    expect((await ask(HOST)).json()).toEqual({ domain: HOST });
    expect((await ask(`${HOST.toUpperCase()}.`)).statusCode).toBe(200);
    expect((await ask('pages.publisher.example')).statusCode).toBe(200);
    expect((await ask('unknown.example.net')).statusCode).toBe(404);
    expect((await ask('')).statusCode).toBe(404);
    expectError(await t.app.inject({ method: 'GET', url: '/internal/tls/allowed', headers: { host: 'localhost' } }), 400, /domain/);
    expect((await ask('x'.repeat(2000))).statusCode).toBe(400);
  });

  it('the TLS ask is limited to TLS_ASK_MAX answers a second per instance (429 with Retry-After past it)', async () => {
    const limited = await createTestApp({ env: { TLS_ASK_MAX: '3' } });
    try {
      const statuses: number[] = [];
      let retryAfter: string | undefined;
      for (let i = 0; i < 20; i++) {
        const res = await limited.app.inject({ method: 'GET', url: '/internal/tls/allowed?domain=localhost' });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) retryAfter = res.headers['retry-after'] as string;
      }
      // 20 asks fit in at most a few seconds: at most 3 answered in each.
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
      expect(statuses[0]).toBe(200);
      expect(retryAfter).toBe('1');
    } finally {
      await limited.close();
    }
  });

  it('re-verification: a record gone is unverified after the grace (an event), then neither served nor allowed', async () => {
    await t.request({ method: 'POST', url: '/api/v1/webhooks', key: a.key, body: { url: 'http://127.0.0.1:9/hooks', events: ['domain.unverified'] } });
    const domains = t.app.services.domains;
    const now = Date.now();
    const hours = (h: number) => new Date(now + h * 3_600_000);
    // Not due yet (looked up at verification): nothing happens.
    expect(await domains.recheck(hours(0.5))).toEqual([]);
    await dns.clearTxt(`_pps-challenge.${HOST}`);
    // Due, the record gone: the failures start; within the 3 days the hostname stays served.
    expect(await domains.recheck(hours(2))).toEqual([]);
    expect(await domains.recheck(hours(30))).toEqual([]);
    expect((await on(HOST, '/')).statusCode).toBe(200);
    expect((await ask(HOST)).statusCode).toBe(200);
    // 3 days after the first failure: unverified, once.
    expect(await domains.recheck(hours(2 + 72))).toEqual([HOST]);
    expect(await domains.recheck(hours(2 + 96))).toEqual([]);
    expect((await on(HOST, '/')).statusCode).toBe(404);
    expect((await ask(HOST)).statusCode).toBe(404);
    const listed = (await t.request({ method: 'GET', url: `/api/v1/estates/${seed.estateId}/domains`, key: a.key })).json() as Array<{
      hostname: string;
      status: string;
    }>;
    expect(listed.find((d) => d.hostname === HOST)?.status).toBe('unverified');
    const events = await t.db.query<{ body: string }>("SELECT body FROM webhook_events WHERE organization_id = $1 AND type = 'domain.unverified'", [a.id]);
    expect(events.map((e) => JSON.parse(e.body).data.hostname)).toEqual([HOST]);
    // /p/{slug} is canonical on the service again.
    expect(canonicalOf((await on('pages.publisher.example', `/p/${seed.slug}`)).body)).toBe(`https://pages.publisher.example/p/${seed.slug}`);
    // The other hostname, its record in place, stays verified.
    expect(await domains.recheck(hours(200))).toEqual([]);
    expect((await on(OTHER_HOST, '/')).statusCode).toBe(200);
    // A record back and verified again: served again.
    const record = (listed.find((d) => d.hostname === HOST) as unknown as { verification: { txtName: string; txtValue: string } }).verification;
    await dns.setTxt(record.txtName, record.txtValue);
    expect((await t.request({ method: 'POST', url: `/api/v1/estates/${seed.estateId}/domains/${HOST}/verify`, key: a.key })).statusCode).toBe(200);
    expect((await on(HOST, '/')).statusCode).toBe(200);
  });

  it('a record found again within the grace clears the failures', async () => {
    const domains = t.app.services.domains;
    const now = Date.now();
    const hours = (h: number) => new Date(now + h * 3_600_000);
    await dns.clearTxt(`_pps-challenge.${OTHER_HOST}`);
    expect(await domains.recheck(hours(1000))).toEqual([]);
    const record = (
      (await t.request({ method: 'GET', url: `/api/v1/estates/${otherSeed.estateId}/domains`, key: b.key })).json() as Array<{
        verification: { txtName: string; txtValue: string };
      }>
    )[0]!.verification;
    await dns.setTxt(record.txtName, record.txtValue);
    expect(await domains.recheck(hours(1050))).toEqual([]);
    await dns.clearTxt(record.txtName);
    // Failing again from 1100 h: 3 days from there, not from 1000 h.
    expect(await domains.recheck(hours(1100))).toEqual([]);
    expect(await domains.recheck(hours(1100 + 71))).toEqual([]);
    expect((await on(OTHER_HOST, '/')).statusCode).toBe(200);
    expect(await domains.recheck(hours(1100 + 73))).toEqual([OTHER_HOST]);
  });
});
