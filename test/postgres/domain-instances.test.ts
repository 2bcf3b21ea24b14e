import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { type TestDns, startTestDns } from '../helpers/dns-server.js';
import { createInstances } from '../helpers/instances.js';

const HOST = 'homes.instances.example';
/** Far above every wait below: what is seen in time came through a notification, not an expiry. */
const LONG_TTL_MS = 60_000;

/**
 * The verified hostnames are kept in memory per instance (src/modules/domains/directory.ts): a hostname
 * verified, an estate's slug renamed or a hostname removed through one instance is routed accordingly by
 * the other within a second (domains_changed), and the other's kept /p/{slug} names the new canonical
 * (pages_changed).
 */
describe('custom domains across instances (PostgreSQL)', () => {
  let apps: FastifyInstance[] = [];
  let close: () => Promise<void> = async () => undefined;
  let dns: TestDns;
  let key: string;
  let estateId: string;
  let slug: string;

  const api = (app: FastifyInstance, method: string, url: string, body?: unknown) =>
    app.inject({ method: method as never, url, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { payload: body as object } : {}) });
  const onHost = (app: FastifyInstance, url = '/') => app.inject({ method: 'GET', url, headers: { host: HOST } });
  async function within1s(what: string, check: () => Promise<boolean>) {
    const started = Date.now();
    while (Date.now() - started < 1_000) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`the other instance did not see it within a second: ${what}`);
  }

  beforeAll(async () => {
    dns = await startTestDns();
    ({ apps, close } = await createInstances(2, { CACHE_TTL_MS: String(LONG_TTL_MS), DNS_SERVERS: dns.server }));
    for (let i = 0; i < 400 && !apps.every((a) => a.services.pages.pages.isTrusted); i++) await new Promise((r) => setTimeout(r, 25));
    const [a] = apps as [FastifyInstance];
    const org = (
      await a.inject({ method: 'POST', url: '/api/v1/admin/organizations', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { name: 'Domains' } })
    ).json();
    key = org.apiKey;
    const setup = (await api(a, 'POST', '/api/v1/estate/setup', { name: 'Instance Park' })).json();
    estateId = setup.estate.id;
    slug = setup.estate.slug;
    expect((await api(a, 'PUT', `/api/v1/estates/${estateId}/page`, { enabled: true })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await close();
    await dns?.stop();
  });

  it('a hostname verified, renamed and removed through one instance is routed so by the other within a second', async () => {
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    // b keeps /p/{slug} with the service's canonical.
    expect((await b.inject({ method: 'GET', url: `/p/${slug}` })).body).toContain(`href="http://localhost:3000/p/${slug}"`);
    expect((await onHost(b)).statusCode).toBe(404);

    const added = (await api(a, 'POST', `/api/v1/estates/${estateId}/domains`, { hostname: HOST })).json();
    await dns.setTxt(added.verification.txtName, added.verification.txtValue);
    expect((await api(a, 'POST', `/api/v1/estates/${estateId}/domains/${HOST}/verify`)).statusCode).toBe(200);
    await within1s('the hostname verified', async () => (await onHost(b)).statusCode === 200);
    expect((await onHost(b)).body).toContain('Instance Park');
    await within1s('the canonical of /p/{slug}', async () => (await b.inject({ method: 'GET', url: `/p/${slug}` })).body.includes(`href="https://${HOST}/"`));
    expect((await b.inject({ method: 'GET', url: `/internal/tls/allowed?domain=${HOST}` })).statusCode).toBe(200);

    // The slug renamed: the hostname follows the estate.
    expect((await api(a, 'PATCH', `/api/v1/estate/${estateId}`, { slug: 'renamed-park' })).statusCode).toBe(200);
    await within1s('the renamed slug', async () => (await onHost(b)).statusCode === 200 && (await onHost(b, '/p/renamed-park')).statusCode === 200);

    expect((await api(a, 'DELETE', `/api/v1/estates/${estateId}/domains/${HOST}`)).statusCode).toBe(204);
    await within1s('the hostname removed', async () => (await onHost(b)).statusCode === 404);
    expect((await b.inject({ method: 'GET', url: `/internal/tls/allowed?domain=${HOST}` })).statusCode).toBe(404);
  });
});
