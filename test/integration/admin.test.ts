import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApp, createTestApp } from '../helpers/app.js';
import { expect422, expectError, expectUnreadableBodies } from '../helpers/bad-input.js';
import { createEstate } from '../helpers/factories.js';

const MISSING = '01890000-0000-7000-8000-000000000003';

describe('admin surface', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('POST /admin/organizations returns the organization and a working read+write key', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/admin/organizations',
      key: ADMIN_TOKEN,
      body: { name: ' Acme Homes ', featureFlags: ['estates'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { organization, apiKey } = res.json();
    expect(organization).toMatchObject({ name: 'Acme Homes', featureFlags: ['estates'], id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(apiKey).toMatch(/^epk_[\w-]{43,}$/);
    const created = await t.request({ method: 'POST', url: '/api/v1/estate', key: apiKey, body: { name: 'First' } });
    expect(created.statusCode).toBe(201);
    expect(created.json().organizationId).toBe(organization.id);
  });

  it('stores only a hash of the key', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/admin/organizations', key: ADMIN_TOKEN, body: { name: 'Hashed' } });
    const { apiKey, organization } = res.json();
    const rows = await t.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE organization_id = $1', [organization.id]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(apiKey);
  });

  it('GET /admin/organizations lists organizations newest first and pages', async () => {
    const x = (await t.request({ method: 'POST', url: '/api/v1/admin/organizations', key: ADMIN_TOKEN, body: { name: 'List X' } })).json().organization;
    const y = (await t.request({ method: 'POST', url: '/api/v1/admin/organizations', key: ADMIN_TOKEN, body: { name: 'List Y' } })).json().organization;
    const res = await t.request({ method: 'GET', url: '/api/v1/admin/organizations', key: ADMIN_TOKEN, query: { limit: '2' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((o: { id: string }) => o.id)).toEqual([y.id, x.id]);
    expectError(await t.request({ method: 'GET', url: '/api/v1/admin/organizations?limit=abc', key: ADMIN_TOKEN }), 400, /limit/);
  });

  it('issues keys with scopes; a read-only key reads but cannot write; revoked keys answer 401', async () => {
    const org = await t.createOrg('Keys');
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/admin/organizations/${org.id}/api-keys`,
      key: ADMIN_TOKEN,
      body: { name: 'reporting', scopes: ['read'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'reporting', scopes: ['read'], apiKey: expect.stringMatching(/^epk_/) });
    const ro = res.json().apiKey as string;
    expect((await t.request({ method: 'GET', url: '/api/v1/estate', key: ro })).statusCode).toBe(200);
    expectError(await t.request({ method: 'POST', url: '/api/v1/estate', key: ro, body: { name: 'Nope' } }), 403, /write/);

    // Every field is optional, so no body at all means the defaults.
    const bodiless = await t.request({ method: 'POST', url: `/api/v1/admin/organizations/${org.id}/api-keys`, key: ADMIN_TOKEN });
    expect(bodiless.statusCode, bodiless.body).toBe(201);
    expect(bodiless.json()).toMatchObject({ name: 'key', scopes: ['read', 'write'] });
    const defaults = (await t.request({ method: 'POST', url: `/api/v1/admin/organizations/${org.id}/api-keys`, key: ADMIN_TOKEN, body: {} })).json();
    expect(defaults.scopes).toEqual(['read', 'write']);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/admin/api-keys/${defaults.id}`, key: ADMIN_TOKEN });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expectError(await t.request({ method: 'GET', url: '/api/v1/estate', key: defaults.apiKey }), 401);
    // The other keys of the organization keep working.
    expect((await t.request({ method: 'GET', url: '/api/v1/estate', key: org.key })).statusCode).toBe(200);
  });

  it('404 for keys of an unknown organization and for revoking an unknown key', async () => {
    expectError(
      await t.request({ method: 'POST', url: `/api/v1/admin/organizations/${MISSING}/api-keys`, key: ADMIN_TOKEN, body: {} }),
      404,
      `Organization with id ${MISSING} not found`,
    );
    expectError(await t.request({ method: 'POST', url: '/api/v1/admin/organizations/nope/api-keys', key: ADMIN_TOKEN, body: {} }), 404);
    expectError(await t.request({ method: 'DELETE', url: `/api/v1/admin/api-keys/${MISSING}`, key: ADMIN_TOKEN }), 404);
  });

  it('400/422 for bad admin bodies', async () => {
    const target = { method: 'POST' as const, url: '/api/v1/admin/organizations', key: ADMIN_TOKEN };
    await expectUnreadableBodies(t, target);
    await expect422(t, target, {}, 'name');
    await expect422(t, target, { name: 'x'.repeat(201) }, 'name');
    await expect422(t, target, { name: 'X', plan: 'gold' }, 'plan');
    await expect422(t, target, { name: 'X', featureFlags: 'estates' }, 'featureFlags');
    const org = await t.createOrg('Bad keys');
    await expect422(t, { method: 'POST', url: `/api/v1/admin/organizations/${org.id}/api-keys`, key: ADMIN_TOKEN }, { scopes: ['admin'] }, 'scopes[0]');
  });

  it('PATCH /admin/estates/{id} sets dashboard-managed fields of any organization', async () => {
    const org = await t.createOrg('Dashboard');
    const estate = await createEstate(t, org.key);
    const res = await t.request({
      method: 'PATCH',
      url: `/api/v1/admin/estates/${estate.id}`,
      key: ADMIN_TOKEN,
      body: { subscriptionStatus: 'SUSPENDED', isPreview: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: estate.id, subscriptionStatus: 'SUSPENDED', isPreview: true });
    expect((await t.request({ method: 'GET', url: `/api/v1/estate/${estate.id}`, key: org.key })).json().subscriptionStatus).toBe('SUSPENDED');
    await expect422(
      t,
      { method: 'PATCH', url: `/api/v1/admin/estates/${estate.id}`, key: ADMIN_TOKEN },
      { subscriptionStatus: 'PLATINUM' },
      'subscriptionStatus',
    );
    await expect422(t, { method: 'PATCH', url: `/api/v1/admin/estates/${estate.id}`, key: ADMIN_TOKEN }, { name: 'rename' }, 'name');
    expectError(
      await t.request({ method: 'PATCH', url: `/api/v1/admin/estates/${MISSING}`, key: ADMIN_TOKEN, body: { isPreview: false } }),
      404,
      `Estate with id ${MISSING} not found`,
    );
  });

  it('no token or a wrong token is 401; an organization key is 403', async () => {
    const org = await t.createOrg('Intruder');
    expectError(await t.request({ method: 'POST', url: '/api/v1/admin/organizations', body: { name: 'x' } }), 401);
    expectError(await t.request({ method: 'POST', url: '/api/v1/admin/organizations', key: 'wrong-token-wrong-token', body: { name: 'x' } }), 401);
    expectError(await t.request({ method: 'POST', url: '/api/v1/admin/organizations', key: org.key, body: { name: 'x' } }), 403);
    expectError(await t.request({ method: 'GET', url: '/api/v1/admin/organizations', key: org.key }), 403);
  });

  it('the admin surface is off (404) when ADMIN_TOKEN is unset', async () => {
    const off = await createTestApp({ env: { ADMIN_TOKEN: '' } });
    try {
      expectError(await off.request({ method: 'GET', url: '/api/v1/admin/organizations', key: ADMIN_TOKEN }), 404, /ADMIN_TOKEN/);
    } finally {
      await off.close();
    }
  });
});
