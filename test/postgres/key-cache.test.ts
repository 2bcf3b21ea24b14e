import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, observeQueries } from '../../src/db/client.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { isBackground } from '../helpers/background-statements.js';
import { createInstances } from '../helpers/instances.js';

/**
 * Two instances on one PostgreSQL database, each with its key cache trusted through its LISTEN
 * connection: a key revoked on one is refused by the other within one second, though it had it cached.
 */
describe('API key cache across instances (PostgreSQL)', () => {
  let apps: FastifyInstance[] = [];
  let dbs: Database[] = [];
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    ({ apps, dbs, close } = await createInstances(2));
    for (let i = 0; i < 400 && !apps.every((a) => a.services.organizations.keyCache.isTrusted); i++) await new Promise((r) => setTimeout(r, 25));
  });
  afterAll(() => close());

  const inject = (app: FastifyInstance, method: string, url: string, key: string, body?: unknown) =>
    app.inject({ method: method as never, url, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { payload: body as object } : {}) });

  it('a key revoked on one instance is refused on the other within one second', async () => {
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    expect(a.services.organizations.keyCache.isTrusted).toBe(true);
    expect(b.services.organizations.keyCache.isTrusted).toBe(true);
    const org = (await inject(a, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Keys Org' })).json();
    const issued = (await inject(a, 'POST', `/api/v1/admin/organizations/${org.organization.id}/api-keys`, ADMIN_TOKEN, { scopes: ['read'] })).json();

    // Cached on b: a second read there runs no key lookup.
    expect((await inject(b, 'GET', '/api/v1/estate', issued.apiKey)).statusCode).toBe(200);
    const statements: string[] = [];
    observeQueries(dbs[1]!, (sql) => isBackground(sql) || statements.push(sql));
    expect((await inject(b, 'GET', '/api/v1/estate', issued.apiKey)).statusCode).toBe(200);
    observeQueries(dbs[1]!, undefined);
    expect(statements.some((s) => /api_keys/.test(s))).toBe(false);

    expect((await inject(a, 'DELETE', `/api/v1/admin/api-keys/${issued.id}`, ADMIN_TOKEN)).statusCode).toBe(204);
    const revokedAt = Date.now();
    let refusedAfter: number | undefined;
    while (Date.now() - revokedAt < 1_000) {
      if ((await inject(b, 'GET', '/api/v1/estate', issued.apiKey)).statusCode === 401) {
        refusedAfter = Date.now() - revokedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(refusedAfter, 'the other instance still accepted the key one second after its revocation').toBeDefined();
    expect((await inject(b, 'GET', '/api/v1/estate', org.apiKey)).statusCode).toBe(200);
  });

  it('without its LISTEN connection an instance looks every key up', async () => {
    const b = apps[1]!;
    b.services.organizations.keyCache.setTrusted(false);
    try {
      const org = (await inject(b, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Untrusted Org' })).json();
      expect((await inject(b, 'GET', '/api/v1/estate', org.apiKey)).statusCode).toBe(200);
      const statements: string[] = [];
      observeQueries(dbs[1]!, (sql) => isBackground(sql) || statements.push(sql));
      expect((await inject(b, 'GET', '/api/v1/estate', org.apiKey)).statusCode).toBe(200);
      observeQueries(dbs[1]!, undefined);
      expect(statements.some((s) => /api_keys/.test(s))).toBe(true);
    } finally {
      b.services.organizations.keyCache.setTrusted(true);
    }
  });
});
