import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createProject } from '../helpers/factories.js';

/**
 * Issue 17: keys an organization manages, the publishable (browser) scope and the slug lookup.
 * The tenancy suite walks every route with a publishable key (403 outside the public-page reads, no
 * personal data anywhere); this file checks what those reads answer and the key lifecycle.
 */
describe('publishable keys, key management and the slug lookup', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let browserKey: string;
  let project: Awaited<ReturnType<typeof createProject>>;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Publisher A');
    b = await t.createOrg('Publisher B');
    project = await createProject(t, a.key);
    const created = await t.request({ method: 'POST', url: '/api/v1/api-keys', key: a.key, body: { name: 'website', scopes: ['publishable'] } });
    expect(created.statusCode).toBe(201);
    browserKey = created.json().apiKey;
  });
  afterAll(async () => t?.close());

  describe('POST, GET and DELETE /api/v1/api-keys', () => {
    it('creating an organization answers its first key id, which the list shows without secrets', async () => {
      const res = await t.request({ method: 'POST', url: '/api/v1/admin/organizations', key: ADMIN_TOKEN, body: { name: 'First key org' } });
      expect(res.statusCode).toBe(201);
      const { apiKey, apiKeyId } = res.json() as { apiKey: string; apiKeyId: string };
      const list = await t.request({ method: 'GET', url: '/api/v1/api-keys', key: apiKey });
      expect(list.statusCode).toBe(200);
      expect(list.json()).toEqual([
        {
          id: apiKeyId,
          name: 'default',
          scopes: ['read', 'write'],
          prefix: apiKey.slice(0, 12),
          createdAt: expect.any(String),
          expiresAt: null,
          revokedAt: null,
        },
      ]);
      expect(list.body).not.toContain(apiKey);
    });

    it('issues a publishable key that says what it is, shown once', async () => {
      const res = await t.request({ method: 'POST', url: '/api/v1/api-keys', key: a.key, body: { name: 'site', scopes: ['publishable'] } });
      expect(res.statusCode).toBe(201);
      const issued = res.json();
      expect(issued).toMatchObject({ name: 'site', scopes: ['publishable'], expiresAt: null });
      expect(issued.apiKey).toMatch(/^epk_pub_[\w-]{43}$/);
      const list = await t.request({ method: 'GET', url: '/api/v1/api-keys', key: a.key });
      const listed = list.json().find((k: { id: string }) => k.id === issued.id);
      expect(listed).toMatchObject({ name: 'site', scopes: ['publishable'], prefix: issued.apiKey.slice(0, 16), revokedAt: null });
      expect(list.body).not.toContain(issued.apiKey);
    });

    it('refuses bad bodies naming the field', async () => {
      const cases: Array<[unknown, number, string]> = [
        [{ scopes: ['read'] }, 400, 'name'],
        [{ name: 'x', scopes: ['admin'] }, 400, 'scopes'],
        [{ name: 'x', scopes: [] }, 400, 'scopes'],
        [{ name: 'x', scopes: ['publishable', 'read'] }, 422, 'scopes'],
        [{ name: 'x', expiresAt: 'tomorrow' }, 400, 'expiresAt'],
        [{ name: 'x', expiresAt: '2001-01-01T00:00:00Z' }, 422, 'expiresAt'],
      ];
      for (const [body, status, field] of cases) {
        const res = await t.request({ method: 'POST', url: '/api/v1/api-keys', key: a.key, body });
        expect([res.statusCode, res.json().message], JSON.stringify(body)).toEqual([expect.any(Number), expect.stringContaining(field)]);
        expect(res.statusCode === status || (status === 400 && res.statusCode === 422), `${JSON.stringify(body)} -> ${res.statusCode}`).toBe(true);
      }
      const keys = await t.request({ method: 'GET', url: '/api/v1/api-keys', key: a.key });
      expect(keys.json().filter((k: { name: string }) => k.name === 'x')).toEqual([]);
    });

    it('ignores Idempotency-Key: a second call issues a second key (the secret is never stored to replay)', async () => {
      const headers = { 'idempotency-key': 'issue-website-key' };
      const one = await t.request({ method: 'POST', url: '/api/v1/api-keys', key: a.key, body: { name: 'twice' }, headers });
      const two = await t.request({ method: 'POST', url: '/api/v1/api-keys', key: a.key, body: { name: 'twice' }, headers });
      expect([one.statusCode, two.statusCode]).toEqual([201, 201]);
      expect(two.headers['idempotent-replayed']).toBeUndefined();
      expect(two.json().id).not.toBe(one.json().id);
    });

    it('needs the write scope for every key route, and a key to begin with', async () => {
      const readOnly = await t.issueKey(a.id, ['read']);
      for (const [method, url] of [
        ['GET', '/api/v1/api-keys'],
        ['POST', '/api/v1/api-keys'],
        ['DELETE', `/api/v1/api-keys/${readOnly.id}`],
      ] as const) {
        const body = method === 'POST' ? { name: 'nope' } : undefined;
        expect((await t.request({ method, url, key: readOnly.key, body })).statusCode, `${method} ${url} read-only`).toBe(403);
        expect((await t.request({ method, url, key: browserKey, body })).statusCode, `${method} ${url} publishable`).toBe(403);
        expect((await t.request({ method, url, body })).statusCode, `${method} ${url} no key`).toBe(401);
      }
    });

    it('revokes a key at once (401), not another organization’s (404), and never the last write key (409)', async () => {
      const org = await t.createOrg('Revoking org');
      const keys = await t.request({ method: 'GET', url: '/api/v1/api-keys', key: org.key });
      const firstId = keys.json()[0].id as string;

      const last = await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${firstId}`, key: org.key });
      expect(last.statusCode).toBe(409);
      expect(last.json().message).toContain('last write key');

      const foreign = await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${firstId}`, key: b.key });
      expect(foreign.statusCode).toBe(404);
      expect((await t.request({ method: 'DELETE', url: '/api/v1/api-keys/not-a-uuid', key: org.key })).statusCode).toBe(404);

      // A read-only key does not count as a write key: the first key stays the last one.
      await t.request({ method: 'POST', url: '/api/v1/api-keys', key: org.key, body: { name: 'reader', scopes: ['read'] } });
      expect((await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${firstId}`, key: org.key })).statusCode).toBe(409);

      const second = await t.request({ method: 'POST', url: '/api/v1/api-keys', key: org.key, body: { name: 'second', scopes: ['read', 'write'] } });
      const secondKey = second.json().apiKey as string;
      const revoked = await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${firstId}`, key: secondKey });
      expect(revoked.statusCode).toBe(204);
      expect((await t.request({ method: 'GET', url: '/api/v1/estate', key: org.key })).statusCode).toBe(401);
      const again = await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${firstId}`, key: secondKey });
      expect(again.statusCode).toBe(204);
      const listed = (await t.request({ method: 'GET', url: '/api/v1/api-keys', key: secondKey })).json();
      expect(listed.find((k: { id: string }) => k.id === firstId).revokedAt).toEqual(expect.any(String));
      // Now the second key is the last write key, also for itself.
      expect((await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${second.json().id}`, key: secondKey })).statusCode).toBe(409);
    });

    it('two revocations racing for the last two write keys cannot both succeed', async () => {
      const org = await t.createOrg('Racing org');
      const other = (await t.request({ method: 'POST', url: '/api/v1/api-keys', key: org.key, body: { name: 'other', scopes: ['write'] } })).json();
      const firstId = (await t.request({ method: 'GET', url: '/api/v1/api-keys', key: org.key })).json().find((k: { name: string }) => k.name === 'default').id;
      const [one, two] = await Promise.all([
        t.request({ method: 'DELETE', url: `/api/v1/api-keys/${firstId}`, key: other.apiKey }),
        t.request({ method: 'DELETE', url: `/api/v1/api-keys/${other.id}`, key: org.key }),
      ]);
      // One wins. The other is 409 (it waited on the lock and saw the last write key), or 401 when the winner
      // had already revoked the very key the loser authenticates with: never both 204.
      const statuses = [one.statusCode, two.statusCode].sort();
      expect(statuses[0]).toBe(204);
      expect([401, 409]).toContain(statuses[1]);
      const survivor = one.statusCode === 204 ? other.apiKey : org.key;
      const keys = (await t.request({ method: 'GET', url: '/api/v1/api-keys', key: survivor })).json() as Array<{ scopes: string[]; revokedAt: string | null }>;
      expect(keys.filter((k) => k.scopes.includes('write') && k.revokedAt === null)).toHaveLength(1);
    });

    it('an expired key answers 401', async () => {
      const soon = new Date(Date.now() + 1_500).toISOString();
      const res = await t.request({ method: 'POST', url: '/api/v1/api-keys', key: a.key, body: { name: 'short-lived', scopes: ['read'], expiresAt: soon } });
      expect(res.statusCode).toBe(201);
      expect(res.json().expiresAt).toBe(soon);
      const key = res.json().apiKey as string;
      expect((await t.request({ method: 'GET', url: '/api/v1/estate', key })).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 1_700));
      const expired = await t.request({ method: 'GET', url: '/api/v1/estate', key });
      expect(expired.statusCode).toBe(401);
      expect(expired.json().message).toContain('expired');
    });
  });

  describe('what a publishable key reads', () => {
    it('apartments without price history, integration fields or a hidden price; cacheable', async () => {
      const hidden = await t.request({
        method: 'POST',
        url: '/api/v1/apartment',
        key: a.key,
        body: { name: 'Hidden price', buildingId: project.building.id, priceCents: 50_000_000, showPrice: false, externalId: 'ERP-1', source: 'erp' },
      });
      expect(hidden.statusCode).toBe(201);
      const id = hidden.json().id as string;
      await t.request({
        method: 'PATCH',
        url: `/api/v1/apartment/${id}`,
        key: a.key,
        body: { priceCents: 51_000_000, lastSynchronizedAt: '2026-01-01T00:00:00.000Z' },
      });
      const owner = (await t.request({ method: 'GET', url: `/api/v1/apartment/${id}`, key: a.key })).json();
      expect(owner).toMatchObject({ priceCents: 51_000_000, externalId: 'ERP-1', source: 'erp' });
      expect(owner.priceChangeHistory).toHaveLength(1);

      const res = await t.request({ method: 'GET', url: `/api/v1/apartment/${id}`, key: browserKey, headers: { origin: 'https://www.example-developer.com' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id,
        name: 'Hidden price',
        priceCents: null,
        showPrice: false,
        externalId: null,
        source: null,
        lastSynchronizedAt: null,
        priceChangeHistory: [],
      });
      expect(res.json().building.id).toBe(project.building.id);
      expect(res.headers['cache-control']).toBe('public, max-age=30');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers.vary).toContain('authorization');
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await t.request({ method: 'GET', url: `/api/v1/apartment/${id}`, key: browserKey, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');

      const shown = project.apartment.id;
      await t.request({ method: 'PATCH', url: `/api/v1/apartment/${shown}`, key: a.key, body: { priceCents: 42_000_000, showPrice: true } });
      const list = await t.request({ method: 'GET', url: `/api/v1/apartment?buildingId=${project.building.id}`, key: browserKey });
      expect(list.statusCode).toBe(200);
      const items = list.json().items as Array<Record<string, unknown>>;
      expect(items.find((i) => i.id === shown)).toMatchObject({ priceCents: 42_000_000, priceChangeHistory: [] });
      expect(items.find((i) => i.id === id)).toMatchObject({ priceCents: null, externalId: null });
      expect(list.body).not.toContain('ERP-1');
      expect(list.body).not.toContain('51000000');
    });

    it('a hidden price cannot be found by filtering or sorting, and external ids are no filter', async () => {
      const building = (
        await t.request({ method: 'POST', url: '/api/v1/building', key: a.key, body: { name: 'Price probe', estateId: project.estate.id } })
      ).json();
      const bulk = await t.request({
        method: 'POST',
        url: '/api/v1/apartment/bulk',
        key: a.key,
        body: {
          buildingId: building.id,
          apartments: [
            { name: 'Shown cheap', priceCents: 100, showPrice: true },
            { name: 'Hidden', priceCents: 200, showPrice: false, externalId: 'PROBE-1' },
            { name: 'Shown dear', priceCents: 300, showPrice: true },
          ],
        },
      });
      expect(bulk.statusCode).toBe(201);
      const names = async (query: string, key: string) =>
        (await t.request({ method: 'GET', url: `/api/v1/apartment?buildingId=${building.id}&${query}`, key }))
          .json()
          .items.map((i: { name: string }) => i.name);
      expect(await names('minPrice=150&maxPrice=250', a.key)).toEqual(['Hidden']);
      expect(await names('minPrice=150&maxPrice=250', browserKey)).toEqual([]);
      expect(await names('sort=-priceCents', a.key)).toEqual(['Shown dear', 'Hidden', 'Shown cheap']);
      expect(await names('sort=-priceCents', browserKey)).toEqual(['Shown dear', 'Shown cheap', 'Hidden']);
      expect(await names('sort=priceCents', browserKey)).toEqual(['Shown cheap', 'Shown dear', 'Hidden']);
      const byExternal = await t.request({ method: 'GET', url: `/api/v1/apartment?buildingId=${building.id}&externalId=PROBE-1`, key: browserKey });
      expect(byExternal.statusCode).toBe(403);
      expect(byExternal.json().message).toContain('externalId');
      const buildings = await t.request({ method: 'GET', url: `/api/v1/building?estateId=${project.estate.id}`, key: browserKey });
      expect(buildings.statusCode).toBe(200);
      expect(buildings.json().map((b: { id: string }) => b.id)).toContain(building.id);
    });

    it('a kept answer never outlives a write made through this instance', async () => {
      const url = `/api/v1/apartment/${project.apartment.id}`;
      await t.request({ method: 'PATCH', url, key: a.key, body: { priceCents: 30_000_000, showPrice: true } });
      const first = await t.request({ method: 'GET', url, key: browserKey });
      expect(first.json().priceCents).toBe(30_000_000);
      const kept = await t.request({ method: 'GET', url, key: browserKey });
      expect(kept.body).toBe(first.body);
      expect(kept.headers.etag).toBe(first.headers.etag);
      await t.request({ method: 'PATCH', url, key: a.key, body: { priceCents: 31_000_000 } });
      const after = await t.request({ method: 'GET', url, key: browserKey });
      expect(after.json().priceCents).toBe(31_000_000);
      expect(after.headers.etag).not.toBe(first.headers.etag);
      expect((await t.request({ method: 'GET', url, key: browserKey, headers: { 'if-none-match': after.headers.etag as string } })).statusCode).toBe(304);
      // Hiding the price is a write like any other: the kept answer goes with it.
      await t.request({ method: 'PATCH', url, key: a.key, body: { showPrice: false } });
      expect((await t.request({ method: 'GET', url, key: browserKey })).json().priceCents).toBeNull();
      // A bad query is still refused while answers are kept.
      expect((await t.request({ method: 'GET', url: '/api/v1/apartment?limit=-1', key: browserKey })).statusCode).toBe(400);
    });

    it('estates, buildings, the navigator and assets; every write and the inquiries are 403', async () => {
      for (const url of ['/api/v1/estate', `/api/v1/estate/${project.estate.id}`, `/api/v1/building/${project.building.id}`, '/api/v1/asset']) {
        const res = await t.request({ method: 'GET', url, key: browserKey });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], url).toBe('public, max-age=30');
      }
      const forbidden = [
        ['GET', '/api/v1/inquiry'],
        ['GET', '/api/v1/apartment/changes'],
        ['GET', '/api/v1/webhooks'],
        ['PATCH', `/api/v1/estate/${project.estate.id}`],
        ['POST', '/api/v1/estate'],
      ] as const;
      for (const [method, url] of forbidden) {
        const res = await t.request({ method, url, key: browserKey, body: method === 'GET' ? undefined : { name: 'x' } });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().message).toContain('publishable');
      }
      // Another organization's resources stay invisible.
      const theirs = await createProject(t, b.key);
      expect((await t.request({ method: 'GET', url: `/api/v1/estate/${theirs.estate.id}`, key: browserKey })).statusCode).toBe(404);
    });

    it('on an add-on read it is a visitor: an add-on that is off shows empty, not the owner’s draft', async () => {
      const url = `/api/v1/estates/${project.estate.id}/gallery`;
      const put = await t.request({ method: 'PUT', url, key: a.key, body: { enabled: false } });
      expect(put.statusCode).toBeLessThan(300);
      const owner = await t.request({ method: 'GET', url, key: a.key });
      expect(owner.headers['cache-control']).toBe('private, no-store');
      const browser = await t.request({ method: 'GET', url, key: browserKey });
      expect(browser.statusCode).toBe(200);
      expect(browser.headers['cache-control']).toBe('public, max-age=30');
      expect(browser.json().enabled).toBe(false);
    });

    it('a preflight from any origin allows the Authorization header for GET', async () => {
      const res = await t.request({
        method: 'OPTIONS',
        url: '/api/v1/apartment',
        headers: { origin: 'https://listings.example.net', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBeDefined();
      expect(String(res.headers['access-control-allow-headers'])).toContain('authorization');
    });
  });

  describe('GET /api/v1/estates/by-slug/{slug}', () => {
    it('finds an estate without a key, case-insensitively, cacheable', async () => {
      const estate = (await t.request({ method: 'GET', url: `/api/v1/estate/${project.estate.id}`, key: a.key })).json();
      const res = await t.request({ method: 'GET', url: `/api/v1/estates/by-slug/${estate.slug.toUpperCase()}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ id: estate.id, slug: estate.slug, name: estate.name });
      expect(res.headers['cache-control']).toBe('public, max-age=30');
      expect(res.headers.etag).toBeDefined();
      const withKey = await t.request({ method: 'GET', url: `/api/v1/estates/by-slug/${estate.slug}`, key: browserKey });
      expect(withKey.json()).toEqual(res.json());
    });

    it('answers 404 for an unknown slug and 401 for a bad key', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/estates/by-slug/no-such-estate-here' });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toContain('no-such-estate-here');
      expect((await t.request({ method: 'GET', url: `/api/v1/estates/by-slug/${'x'.repeat(201)}` })).statusCode).toBe(404);
      expect((await t.request({ method: 'GET', url: '/api/v1/estates/by-slug/anything', key: 'epk_pub_wrong' })).statusCode).toBe(401);
    });

    it('answers at /api/v1/estate-slugs/{slug} with 304 for its ETag; the old path is a hidden, deprecated alias (issue 25)', async () => {
      const estate = (await t.request({ method: 'GET', url: `/api/v1/estate/${project.estate.id}`, key: a.key })).json();
      const res = await t.request({ method: 'GET', url: `/api/v1/estate-slugs/${estate.slug}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ id: estate.id, slug: estate.slug, name: estate.name });
      const again = await t.request({ method: 'GET', url: `/api/v1/estate-slugs/${estate.slug}`, headers: { 'if-none-match': res.headers.etag as string } });
      expect(again.statusCode).toBe(304);
      const old = await t.request({ method: 'GET', url: `/api/v1/estates/by-slug/${estate.slug}` });
      expect(old.body).toBe(res.body);
      expect(old.headers.deprecation).toBe('true');
      expect(old.headers.link).toBe(`</api/v1/estate-slugs/${estate.slug}>; rel="successor-version"`);
      const doc = t.app.swagger() as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths).filter((p) => p.includes('by-slug'))).toEqual([]);
      expect(doc.paths['/api/v1/estate-slugs/{slug}']).toBeDefined();
    });
  });
});
