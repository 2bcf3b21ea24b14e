import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeQueries } from '../../src/db/client.js';
import { ADMIN_TOKEN, type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { isBackground } from '../helpers/background-statements.js';
import { createProject } from '../helpers/factories.js';

// The API key cache (src/http/key-cache.ts) on one instance. Across instances: test/postgres/key-cache.test.ts.
describe('API key cache', () => {
  let t: TestApp;
  let org: TestOrg;
  let buildingId: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
    buildingId = (await createProject(t, org.key)).building.id;
  });
  afterAll(() => t?.close());

  const read = (key: string) => t.request({ method: 'GET', url: `/api/v1/building/${buildingId}`, key });

  it('a key seen recently costs no statement: an authenticated read of a building is one statement', async () => {
    expect((await read(org.key)).statusCode).toBe(200);
    const statements: string[] = [];
    // The webhook delivery worker polls in the background; its statements are not the request's.
    observeQueries(t.db, (sql) => isBackground(sql) || statements.push(sql));
    try {
      expect((await read(org.key)).statusCode).toBe(200);
    } finally {
      observeQueries(t.db, undefined);
    }
    // PGlite: the cache is trusted (this process is the only writer). PostgreSQL without a LISTEN
    // connection (as here) looks the key up on every request: two statements.
    expect(statements).toHaveLength(t.db.kind === 'pglite' ? 1 : 2);
    expect(statements.at(-1)).toMatch(/from "buildings"/i);
  });

  it('a revoked key is refused on the next request, though it was cached', async () => {
    const issued = await t.issueKey(org.id, ['read']);
    expect((await read(issued.key)).statusCode).toBe(200);
    expect((await read(issued.key)).statusCode).toBe(200);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/admin/api-keys/${issued.id}`, key: ADMIN_TOKEN });
    expect(del.statusCode).toBe(204);
    const refused = await read(issued.key);
    expect(refused.statusCode).toBe(401);
    expect((await read(org.key)).statusCode).toBe(200);
  });

  it('unknown keys are never cached: each is looked up and refused', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await read(`epk_${'x'.repeat(40)}${i}`);
      expect(res.statusCode).toBe(401);
    }
    const cache = t.app.services.organizations.keyCache;
    const size = cache.size;
    expect((await read('epk_unknown-key-never-issued-0123456789')).statusCode).toBe(401);
    expect(cache.size).toBe(size);
  });
});
