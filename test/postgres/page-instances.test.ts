import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, observeQueries } from '../../src/db/client.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { isBackground } from '../helpers/background-statements.js';
import { createInstances } from '../helpers/instances.js';

/** Far above every wait below: a change seen in time was seen through its notification, not because the kept page expired. */
const LONG_TTL_MS = 60_000;

/**
 * Rendered public pages kept per instance on PostgreSQL (src/modules/pages/service/pages.ts): a kept page costs
 * no statement, and a change made through another instance or by hand (an apartment, the page's
 * settings, the estate, an add-on, the navigator) shows on every instance within a second, though a kept
 * page would live 60 s.
 */
describe('public pages across instances (PostgreSQL)', () => {
  let apps: FastifyInstance[] = [];
  let dbs: Database[] = [];
  let close: () => Promise<void> = async () => undefined;
  let key: string;
  let estateId: string;
  let slug: string;
  let apartmentId: string;
  let navigatorId: string;

  const inject = (app: FastifyInstance, method: string, url: string, body?: unknown) =>
    app.inject({ method: method as never, url, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { payload: body as object } : {}) });
  const page = (app: FastifyInstance) => app.inject({ method: 'GET', url: `/p/${slug}` });
  async function seenWithin1s(app: FastifyInstance, check: (res: { statusCode: number; body: string }) => boolean) {
    const started = Date.now();
    while (Date.now() - started < 1_000) {
      if (check(await page(app))) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the other instance still served the old page one second after the change');
  }

  beforeAll(async () => {
    ({ apps, dbs, close } = await createInstances(2, { CACHE_TTL_MS: String(LONG_TTL_MS) }));
    for (let i = 0; i < 400 && !apps.every((a) => a.services.pages.pages.isTrusted); i++) await new Promise((r) => setTimeout(r, 25));
    const [a] = apps as [FastifyInstance];
    const org = (
      await a.inject({ method: 'POST', url: '/api/v1/admin/organizations', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { name: 'Pages' } })
    ).json();
    key = org.apiKey;
    const setup = (await inject(a, 'POST', '/api/v1/estate/setup', { name: 'Kept Page' })).json();
    estateId = setup.estate.id;
    slug = setup.estate.slug;
    navigatorId = setup.navigator.id;
    apartmentId = (await inject(a, 'POST', '/api/v1/apartment', { name: 'First Home', buildingId: setup.building.id })).json().id;
    expect((await inject(a, 'PUT', `/api/v1/estates/${estateId}/page`, { enabled: true })).statusCode).toBe(200);
  });
  afterAll(() => close());

  it('a kept page costs no statement', async () => {
    const b = apps[1]!;
    expect(b.services.pages.pages.isTrusted).toBe(true);
    await seenWithin1s(b, (res) => res.statusCode === 200);
    await page(b);
    const statements: string[] = [];
    observeQueries(dbs[1]!, (sql) => isBackground(sql) || statements.push(sql));
    const res = await page(b);
    observeQueries(dbs[1]!, undefined);
    expect(res.statusCode).toBe(200);
    expect(statements).toEqual([]);
  });

  it('changes through the other instance or by hand show within one second', async () => {
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    await seenWithin1s(b, (res) => res.body.includes('First Home'));
    expect((await inject(a, 'PATCH', `/api/v1/apartment/${apartmentId}`, { name: 'Renamed Home' })).statusCode).toBe(200);
    await seenWithin1s(b, (res) => res.body.includes('Renamed Home'));
    await dbs[0]!.query('UPDATE estates SET name = $1 WHERE id = $2', ['Renamed Estate', estateId]);
    await seenWithin1s(b, (res) => res.body.includes('<h1>Renamed Estate</h1>'));
    expect((await inject(a, 'PUT', `/api/v1/estates/${estateId}/gallery`, { enabled: true })).statusCode).toBe(200);
    await seenWithin1s(b, (res) => res.body.includes('id="gallery"'));
    expect((await inject(a, 'PATCH', `/api/v1/navigator/${navigatorId}`, { seoTitle: 'Renamed Navigator' })).statusCode).toBe(200);
    await seenWithin1s(b, (res) => res.body.includes('<title>Renamed Navigator</title>'));
    expect((await inject(a, 'PUT', `/api/v1/estates/${estateId}/page`, { enabled: false })).statusCode).toBe(200);
    await seenWithin1s(b, (res) => res.statusCode === 404);
    await dbs[0]!.query('UPDATE estate_pages SET enabled = true WHERE estate_id = $1', [estateId]);
    await seenWithin1s(b, (res) => res.statusCode === 200);
  });
});
