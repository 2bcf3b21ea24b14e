import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeQueries } from '../../src/db/client.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createProject } from '../helpers/factories.js';

// Apartment documents by id (src/db/read-cache.ts): on PGlite reused while nothing was written, so a
// read never shows anything older than the last write; on PostgreSQL every read asks the database.
describe('apartment documents read by id', () => {
  let t: TestApp;
  let org: TestOrg;
  let ids: { apartment: string; building: string };

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
    const project = await createProject(t, org.key);
    ids = { apartment: project.apartment.id, building: project.building.id };
  });
  afterAll(() => t?.close());

  const get = () => t.request({ method: 'GET', url: `/api/v1/apartment/${ids.apartment}`, key: org.key });
  async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
    const statements: string[] = [];
    observeQueries(t.db, (sql) => statements.push(sql));
    try {
      await fn();
    } finally {
      observeQueries(t.db, undefined);
    }
    return statements;
  }

  it('a repeated read runs no statement on PGlite, one on PostgreSQL', async () => {
    await get();
    const statements = await statementsOf(get);
    expect(statements.filter((s) => /apartments/.test(s))).toHaveLength(t.db.kind === 'pglite' ? 0 : 1);
  });

  it('every write shows at once: the apartment’s own, its building’s, and none from a rolled-back call', async () => {
    expect((await get()).json().priceCents).toBeNull();
    await t.request({ method: 'PATCH', url: `/api/v1/apartment/${ids.apartment}`, key: org.key, body: { priceCents: 123 } });
    expect((await get()).json().priceCents).toBe(123);

    await get();
    await t.request({ method: 'PATCH', url: `/api/v1/building/${ids.building}`, key: org.key, body: { description: 'Renovated' } });
    expect((await get()).json().building.description).toBe('Renovated');

    // A PATCH refused half-way (an unknown asset) changes nothing and shows nothing new.
    const before = (await get()).json();
    const refused = await t.request({
      method: 'PATCH',
      url: `/api/v1/apartment/${ids.apartment}`,
      key: org.key,
      body: { priceCents: 999, assetsIds: ['01890000-0000-7000-8000-00000000000a'] },
    });
    expect(refused.statusCode).toBe(404);
    expect((await get()).json()).toEqual(before);
  });

  it('a write made directly in the database between two reads is seen by the second', async () => {
    await get();
    await t.db.query('UPDATE apartments SET description = $1 WHERE id = $2', ['Changed underneath', ids.apartment]);
    expect((await get()).json().description).toBe('Changed underneath');
  });

  it('another organization’s key never reads the cached document', async () => {
    await get();
    const other = await t.createOrg();
    expect((await t.request({ method: 'GET', url: `/api/v1/apartment/${ids.apartment}`, key: other.key })).statusCode).toBe(404);
  });
});
