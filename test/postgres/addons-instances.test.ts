import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { createInstances } from '../helpers/instances.js';

/**
 * Two instances on one PostgreSQL database (always real PostgreSQL: the cross-instance path only
 * exists there). A write on one must reach the other's cached public document.
 */
describe('add-on public documents across instances (PostgreSQL)', () => {
  let apps: FastifyInstance[] = [];
  let dbs: Database[] = [];
  let close: () => Promise<void> = async () => undefined;

  // A limit for a hang, not a speed check: on a busy machine a LISTEN connection can take seconds to come up.
  const until = async (what: string, check: () => Promise<boolean> | boolean) => {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  beforeAll(async () => {
    ({ apps, dbs, close } = await createInstances(2));
    await until('both listeners', () => apps.every((a) => a.services.addons.publicCache.isTrusted));
  });
  afterAll(() => close());

  const inject = (app: FastifyInstance, method: string, url: string, key?: string, body?: unknown) =>
    app.inject({
      method: method as never,
      url,
      headers: key ? { authorization: `Bearer ${key}` } : {},
      ...(body !== undefined ? { payload: body as object } : {}),
    });

  it('serves cached documents without a query, and sees another instance’s write through its notification', async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance];
    const org = (await inject(one, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Instances' })).json() as {
      organization: { id: string };
      apiKey: string;
    };
    const key = org.apiKey;
    const estate = (await inject(one, 'POST', '/api/v1/estate', key, { name: 'Twin Towers' })).json() as { id: string };
    const url = `/api/v1/estates/${estate.id}/gallery`;
    const asset = await insertAssetRow(dbs[0]!, org.organization.id);
    expect((await inject(one, 'PUT', url, key, { enabled: true })).statusCode).toBe(200);
    expect((await inject(one, 'POST', `${url}/items`, key, { assetId: asset.id })).statusCode).toBe(201);

    await until('instance two to see the first item', async () => (await inject(two, 'GET', url)).json().items.length === 1);
    // Once the notifications of those writes have arrived, reads are served without a query.
    const db2 = dbs[1]!;
    const original = db2.query.bind(db2);
    let queries = 0;
    db2.query = ((sql: string, params?: readonly unknown[]) => {
      queries++;
      return original(sql, params);
    }) as typeof db2.query;
    let cached = await inject(two, 'GET', url);
    try {
      await until('a read served from the cache', async () => {
        const before = queries;
        cached = await inject(two, 'GET', url);
        return queries === before;
      });
    } finally {
      db2.query = original;
    }
    expect(cached.statusCode).toBe(200);
    expect(cached.json().items).toHaveLength(1);

    expect((await inject(one, 'POST', `${url}/items`, key, { assetId: asset.id, caption: 'Second' })).statusCode).toBe(201);
    await until('instance two to see the second item', async () => (await inject(two, 'GET', url)).json().items.length === 2);
    expect((await inject(two, 'GET', url)).headers.etag).not.toBe(cached.headers.etag);
  });

  it('without its listener an instance verifies the version on every read, so nothing stale is served', async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance];
    const org = (await inject(one, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Verify' })).json() as {
      organization: { id: string };
      apiKey: string;
    };
    const estate = (await inject(one, 'POST', '/api/v1/estate', org.apiKey, { name: 'Verify Estate' })).json() as { id: string };
    const url = `/api/v1/estates/${estate.id}/downloads`;
    await inject(one, 'PUT', url, org.apiKey, { enabled: true });
    await until('instance two to see the add-on enabled', async () => (await inject(two, 'GET', url)).json().enabled === true);
    two.services.addons.publicCache.setTrusted(false);
    try {
      expect((await inject(one, 'POST', `${url}/groups`, org.apiKey, { title: 'Now' })).statusCode).toBe(201);
      expect((await inject(two, 'GET', url)).json().groups).toHaveLength(1);
    } finally {
      two.services.addons.publicCache.setTrusted(true);
    }
  });
});
