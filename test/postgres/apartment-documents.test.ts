import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, observeQueries } from '../../src/db/client.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { isBackground } from '../helpers/background-statements.js';
import { createInstances } from '../helpers/instances.js';

/**
 * Apartment documents cached per instance on PostgreSQL (src/db/read-cache.ts): any change to an
 * apartment or its building, made by another instance or directly in the database, reaches every
 * instance through the triggers' notification before a read can show the old state for long.
 */
describe('apartment documents across instances (PostgreSQL)', () => {
  let apps: FastifyInstance[] = [];
  let dbs: Database[] = [];
  let close: () => Promise<void> = async () => undefined;
  let key: string;
  let ids: { apartment: string; building: string };

  const inject = (app: FastifyInstance, method: string, url: string, body?: unknown) =>
    app.inject({ method: method as never, url, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { payload: body as object } : {}) });
  const read = async (app: FastifyInstance) => (await inject(app, 'GET', `/api/v1/apartment/${ids.apartment}`)).json();
  /** Polls b until `check` holds; fails after one second. */
  async function seenWithin1s(app: FastifyInstance, check: (doc: Record<string, unknown>) => boolean) {
    const started = Date.now();
    while (Date.now() - started < 1_000) {
      if (check(await read(app))) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the other instance still served the old document one second after the change');
  }

  beforeAll(async () => {
    ({ apps, dbs, close } = await createInstances(2));
    for (let i = 0; i < 400 && !apps.every((a) => a.services.apartments.documents.isTrusted); i++) await new Promise((r) => setTimeout(r, 25));
    const [a] = apps as [FastifyInstance];
    const org = (
      await a.inject({ method: 'POST', url: '/api/v1/admin/organizations', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { name: 'Docs Org' } })
    ).json();
    key = org.apiKey;
    const estate = (await inject(a, 'POST', '/api/v1/estate', { name: 'E' })).json();
    const building = (await inject(a, 'POST', '/api/v1/building', { estateId: estate.id, name: 'B' })).json();
    const apartment = (await inject(a, 'POST', '/api/v1/apartment', { buildingId: building.id, name: 'A-1' })).json();
    ids = { apartment: apartment.id, building: building.id };
  });
  afterAll(() => close());

  it('a cached document costs no statement', async () => {
    const b = apps[1]!;
    expect(b.services.apartments.documents.isTrusted).toBe(true);
    await read(b);
    const statements: string[] = [];
    observeQueries(dbs[1]!, (sql) => isBackground(sql) || statements.push(sql));
    await read(b);
    observeQueries(dbs[1]!, undefined);
    expect(statements).toEqual([]);
  });

  it('a change on one instance, to the apartment or to its building, shows on the other within one second', async () => {
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    await read(b);
    expect((await inject(a, 'PATCH', `/api/v1/apartment/${ids.apartment}`, { priceCents: 777 })).statusCode).toBe(200);
    await seenWithin1s(b, (doc) => doc.priceCents === 777);

    await read(b);
    expect((await inject(a, 'PATCH', `/api/v1/building/${ids.building}`, { description: 'New lobby' })).statusCode).toBe(200);
    await seenWithin1s(b, (doc) => (doc.building as { description: string | null }).description === 'New lobby');
  });

  it('the instance that writes reads its own write at once', async () => {
    const b = apps[1]!;
    for (const price of [1001, 1002, 1003]) {
      await read(b);
      expect((await inject(b, 'PATCH', `/api/v1/apartment/${ids.apartment}`, { priceCents: price })).statusCode).toBe(200);
      expect((await read(b)).priceCents).toBe(price);
    }
  });

  it('a change made directly in the database shows too', async () => {
    const b = apps[1]!;
    await read(b);
    await dbs[0]!.query('UPDATE apartments SET status = $1 WHERE id = $2', ['SOLD', ids.apartment]);
    await seenWithin1s(b, (doc) => doc.status === 'SOLD');
  });
});
