import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type DashboardUser, joinAs } from '../helpers/dashboard.js';
import { createProject } from '../helpers/factories.js';

/**
 * "Last used" on the API keys screen (issue 35): recorded when a key authenticates, at most once a minute
 * per key, not in the API's key listing (both engines).
 */
describe('dashboard API keys: last used', () => {
  let t: TestApp;
  let a: TestOrg;
  let admin: DashboardUser;
  let base: string;
  let estateId: string;
  let reader: { id: string; key: string };
  let website: { id: string; key: string };

  const lastUsed = async (id: string) => {
    const rows = await t.db.query<{ at: string | null }>('SELECT last_used_at::text AS at FROM api_keys WHERE id = $1', [id]);
    return rows[0]!.at;
  };
  /** The screen's row of the key named `name`: its "Last used" cell. */
  const cellOf = async (name: string) => {
    const page = await admin.get(`${base}/api-keys`);
    expect(page.statusCode).toBe(200);
    const row = new RegExp(`<th scope="row">${name}</th>(.*?)</tr>`, 's').exec(page.body)![1]!;
    return [...row.matchAll(/<td>(.*?)<\/td>/gs)].map((m) => m[1]!)[3]!;
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Key Use');
    admin = await joinAs(t, a.id, 'admin@key-use.example', 'admin');
    base = `/dashboard/o/${a.id}`;
    estateId = (await createProject(t, a.key)).estate.id;
    await t.app.services.organizations.keyUse.idle();
    const made = await t.request({ method: 'POST', url: '/api/v1/api-keys', key: a.key, body: { name: 'reports', scopes: ['read'] } });
    expect(made.statusCode, made.body).toBe(201);
    reader = { id: made.json().id, key: made.json().apiKey };
    const pub = await t.request({ method: 'POST', url: '/api/v1/api-keys', key: a.key, body: { name: 'website', scopes: ['publishable'] } });
    website = { id: pub.json().id, key: pub.json().apiKey };
  });
  afterAll(() => t?.close());

  it('a key never used says “Never”; one request records the time, which the screen shows', async () => {
    expect(await cellOf('reports')).toBe('Never');
    expect(await lastUsed(reader.id)).toBeNull();
    const before = Date.now();
    expect((await t.request({ method: 'GET', url: `/api/v1/estate/${estateId}`, key: reader.key })).statusCode).toBe(200);
    await t.app.services.organizations.keyUse.idle();
    const at = await lastUsed(reader.id);
    expect(at).not.toBeNull();
    expect(Date.parse(at!)).toBeGreaterThanOrEqual(before - 60_000);
    const iso = new Date(at!).toISOString();
    expect(await cellOf('reports')).toBe(`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`);
    // The key that created them was used too (it made the project and the keys).
    expect(await cellOf('default')).toContain('<time datetime=');
  });

  it('uses within the minute write nothing; a use after the minute writes again', async () => {
    const keyUse = t.app.services.organizations.keyUse;
    const first = await lastUsed(reader.id);
    for (let i = 0; i < 5; i++) expect((await t.request({ method: 'GET', url: '/api/v1/estate', key: reader.key })).statusCode).toBe(200);
    await keyUse.idle();
    expect(await lastUsed(reader.id)).toBe(first);
    // In memory: no statement is even started within the minute.
    expect(keyUse.seen(reader.id)).toBe(false);
    // A minute later this process writes again, but the statement keeps a use another instance recorded less
    // than a minute ago (the database's clock says it is recent): still the same value.
    expect(keyUse.seen(reader.id, Date.now() + 61_000)).toBe(true);
    await keyUse.idle();
    expect(await lastUsed(reader.id)).toBe(first);
    // Once the recorded use is over a minute old, the next write moves it.
    await t.db.query(`UPDATE api_keys SET last_used_at = last_used_at - interval '2 minutes' WHERE id = $1`, [reader.id]);
    const older = await lastUsed(reader.id);
    expect(keyUse.seen(reader.id, Date.now() + 122_000)).toBe(true);
    await keyUse.idle();
    const now = await lastUsed(reader.id);
    expect(Date.parse(now!)).toBeGreaterThan(Date.parse(older!));
  });

  it('a publishable key is recorded too, on the public reads where it is an anonymous visitor', async () => {
    expect(await lastUsed(website.id)).toBeNull();
    const read = await t.request({ method: 'GET', url: `/api/v1/estates/${estateId}/gallery`, key: website.key });
    expect(read.statusCode).toBe(200);
    await t.app.services.organizations.keyUse.idle();
    expect(await lastUsed(website.id)).not.toBeNull();
  });

  it('a refused key records nothing, and the API’s key listing keeps its fields (no lastUsedAt)', async () => {
    await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${website.id}`, key: a.key });
    await t.db.query('UPDATE api_keys SET last_used_at = NULL WHERE id = $1', [website.id]);
    expect((await t.request({ method: 'GET', url: '/api/v1/estate', key: website.key })).statusCode).toBe(401);
    await t.app.services.organizations.keyUse.idle();
    expect(await lastUsed(website.id)).toBeNull();
    const listed = (await t.request({ method: 'GET', url: '/api/v1/api-keys', key: a.key })).json() as Array<Record<string, unknown>>;
    expect(listed.length).toBeGreaterThan(0);
    for (const key of listed) expect(Object.keys(key).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'name', 'prefix', 'revokedAt', 'scopes']);
  });
});
