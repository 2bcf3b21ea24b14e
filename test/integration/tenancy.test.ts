import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp } from '../helpers/app.js';
import { startTestDns } from '../helpers/dns-server.js';
import { MODULE_CASES } from '../tenancy/cases/index.js';
import { PROSPECT_EMAIL, PROSPECT_PHONE } from '../tenancy/cases/inquiries.js';
import type { RouteCase, World } from '../tenancy/types.js';

/**
 * The shared tenancy and auth suite. It walks the app's own route table, so a new route without a
 * case here fails; each organization-scoped route is tried with no key, a revoked key, a read-only
 * key (writes), another organization's key, and finally the owner's key.
 */
describe('tenancy and auth over every route', () => {
  let w: World;
  const cases: Record<string, RouteCase> = Object.assign({}, ...MODULE_CASES.map((m) => m.routes));

  beforeAll(async () => {
    const dns = await startTestDns();
    const t = await createTestApp({ env: { DNS_SERVERS: dns.server } });
    const a = await t.createOrg('Tenant A');
    const b = await t.createOrg('Tenant B');
    const readOnly = await t.issueKey(a.id, ['read']);
    const publishable = await t.issueKey(a.id, ['publishable']);
    const revoked = await t.issueKey(a.id, ['read', 'write']);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/admin/api-keys/${revoked.id}`, key: ADMIN_TOKEN });
    expect(del.statusCode).toBe(204);
    w = { t, a, b, readOnlyA: readOnly.key, revokedA: revoked.key, publishableA: publishable.key, ids: {}, dns };
    for (const m of MODULE_CASES) await m.prepare?.(w);
  });
  afterAll(async () => {
    await w?.t.close();
    await w?.dns.stop();
  });

  it('has a case for every partner and public route, and every case names a real route', () => {
    const routes = w.t.app.routeTable.filter((r) => r.auth === 'partner' || r.auth === 'public').map((r) => `${r.method} ${r.url}`);
    const missing = routes.filter((r) => !(r in cases));
    expect(missing, 'routes without a tenancy case').toEqual([]);
    const stale = Object.keys(cases).filter((k) => !routes.includes(k));
    expect(stale, 'cases without a route').toEqual([]);
  });

  it('admin routes: no token 401, an organization key 403', async () => {
    const admin = w.t.app.routeTable.filter((r) => r.auth === 'admin');
    expect(admin.length).toBeGreaterThan(0);
    for (const r of admin) {
      const url = r.url.replace(/:(\w+)/g, '00000000-0000-7000-8000-000000000000');
      const none = await w.t.request({ method: r.method as never, url, body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {} });
      expect(none.statusCode, `${r.method} ${r.url} without token`).toBe(401);
      const partner = await w.t.request({ method: r.method as never, url, key: w.a.key, body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {} });
      expect(partner.statusCode, `${r.method} ${r.url} with an organization key`).toBe(403);
      expect(partner.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
  });

  it('a publishable key may call exactly the reads of what a public page shows', () => {
    const readable = w.t.app.routeTable.filter((r) => r.publishable).map((r) => `${r.method} ${r.url}`);
    expect(readable.sort()).toEqual(
      [
        'GET /api/v1/apartment',
        'GET /api/v1/apartment/:id',
        'GET /api/v1/apartment/:id/panoramas',
        'GET /api/v1/asset',
        'GET /api/v1/asset/:id',
        'GET /api/v1/building',
        'GET /api/v1/building/:id',
        'GET /api/v1/estate',
        'GET /api/v1/estate/:id',
        'GET /api/v1/navigator',
        'GET /api/v1/navigator/:id',
      ].sort(),
    );
  });

  const routeKeys = () => w.t.app.routeTable.filter((r) => r.auth === 'partner' || r.auth === 'public');

  it('every organization-scoped route enforces keys, scopes and tenancy', async () => {
    const failures: string[] = [];
    for (const r of routeKeys()) {
      const key = `${r.method} ${r.url}`;
      const c = cases[key];
      if (!c) continue; // reported by the first test
      const send = async (apiKey: string | undefined) => {
        const req = await c.request(w);
        return w.t.request({ method: r.method as never, url: req.url, key: apiKey, body: req.body, ...(req.headers ? { headers: req.headers } : {}) });
      };
      const check = (label: string, ok: boolean, detail: string) => {
        if (!ok) failures.push(`${key} ${label}: ${detail}`);
      };

      if (r.auth === 'partner') {
        const none = await send(undefined);
        check('no key', none.statusCode === 401 && none.json().error === 'Unauthorized', `${none.statusCode} ${none.body}`);
        const revoked = await send(w.revokedA);
        check('revoked key', revoked.statusCode === 401, `${revoked.statusCode}`);
        if (r.method !== 'GET') {
          const ro = await send(w.readOnlyA);
          check('read-only key on a write', ro.statusCode === 403 && ro.json().error === 'Forbidden', `${ro.statusCode} ${ro.body}`);
        }
      } else {
        const anonymous = await send(undefined);
        check('anonymous public read', anonymous.statusCode < 400, `${anonymous.statusCode} ${anonymous.body}`);
      }

      const foreign = await send(w.b.key);
      if (c.foreign === 404) {
        check('foreign key', foreign.statusCode === 404 && foreign.json().error === 'Not Found', `${foreign.statusCode} ${foreign.body}`);
      } else {
        const leaked = Object.values(w.ids).filter((id) => foreign.body.includes(id));
        check('foreign key isolated', foreign.statusCode < 300 && leaked.length === 0, `${foreign.statusCode} leaked ${leaked.join(',')}`);
      }

      // A's publishable key: the reads of a public page answer (masked), everything else of the
      // partner surface is 403, public routes treat it as an anonymous visitor; no answer carries
      // a prospect's e-mail or phone.
      const browser = await send(w.publishableA);
      if (r.auth === 'public') check('publishable key on a public route', browser.statusCode < 400, `${browser.statusCode} ${browser.body}`);
      else if (r.publishable || r.scope === 'any')
        check('publishable key on a public-page read', browser.statusCode === 200, `${browser.statusCode} ${browser.body}`);
      else check('publishable key elsewhere', browser.statusCode === 403 && browser.json().error === 'Forbidden', `${browser.statusCode} ${browser.body}`);
      for (const secret of [PROSPECT_EMAIL, PROSPECT_PHONE]) {
        check('publishable answer free of personal data', !browser.body.includes(secret), `contains ${secret}`);
      }

      const own = await send(w.a.key);
      check('owner key', own.statusCode >= 200 && own.statusCode < 300, `${own.statusCode} ${own.body}`);
    }
    expect(failures).toEqual([]);
  });
});
