import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runApply } from '../../src/cli/apply/run.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { ROOT } from '../helpers/processes.js';

/** Issue 25, item 7: a key says what it may do, and apply checks that before it plans. */
describe('GET /api/v1/api-keys/current, and apply with a key of the wrong scope', () => {
  let t: TestApp;
  let a: TestOrg;
  let url: string;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Current Key');
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    dir = await mkdtemp(path.join(os.tmpdir(), 'pps-apply-key-'));
    await cp(path.join(ROOT, 'examples'), dir, { recursive: true });
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers the calling key to any scope, publishable too, never its secret; 401 without a valid key', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const keys = [
      { scopes: ['read', 'write'], key: a.key },
      { scopes: ['read'], key: (await t.issueKey(a.id, ['read'])).key },
      { scopes: ['publishable'], key: (await t.issueKey(a.id, ['publishable'])).key },
    ];
    const created = await t.request({ method: 'POST', url: '/api/v1/api-keys', key: a.key, body: { name: 'expiring', scopes: ['write'], expiresAt } });
    expect(created.statusCode).toBe(201);
    keys.push({ scopes: ['write'], key: created.json().apiKey });
    for (const { scopes, key } of keys) {
      const res = await t.request({ method: 'GET', url: '/api/v1/api-keys/current', key });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['expiresAt', 'id', 'name', 'organizationId', 'scopes']);
      expect(body.scopes).toEqual(scopes);
      expect(body.organizationId).toBe(a.id);
      expect(res.body).not.toContain(key);
      // Two keys of one organization never share an answer (nothing here is cached by organization).
      expect(res.headers['cache-control']).toBeUndefined();
    }
    const expiring = (await t.request({ method: 'GET', url: '/api/v1/api-keys/current', key: created.json().apiKey })).json();
    expect(expiring).toMatchObject({ id: created.json().id, name: 'expiring', expiresAt });
    const ids = new Set<string>();
    for (const { key } of keys) ids.add((await t.request({ method: 'GET', url: '/api/v1/api-keys/current', key })).json().id);
    expect(ids.size).toBe(keys.length);
    expect((await t.request({ method: 'GET', url: '/api/v1/api-keys/current' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/v1/api-keys/current', key: 'epk_nope' })).statusCode).toBe(401);
  });

  const apply = async (key: string, dryRun: boolean) => {
    let out = '';
    let err = '';
    const requests: string[] = [];
    const code = await runApply(
      {
        file: path.join(dir, 'project.yaml'),
        url,
        key,
        dryRun,
        pruneAddons: false,
        retries: 0,
        fetch: (request) => {
          requests.push(`${request.method} ${new URL(request.url).pathname}`);
          return fetch(request);
        },
      },
      (s) => {
        out += s;
      },
      (s) => {
        err += s;
      },
    );
    return { code, out, err, requests };
  };

  it('apply refuses a publishable key before planning: exit 2 naming the read scope; nothing else is requested', async () => {
    const { key } = await t.issueKey(a.id, ['publishable']);
    for (const dryRun of [true, false]) {
      const run = await apply(key, dryRun);
      expect(run.code).toBe(2);
      expect(run.err).toContain('needs the read scope');
      expect(run.err).toContain('nothing was changed');
      expect(run.out).toBe('');
      expect(run.requests).toEqual(['GET /api/v1/api-keys/current']);
    }
  });

  it('apply with a read-only key: --dry-run plans, a real run is refused with exit 2 naming the write scope', async () => {
    const { key } = await t.issueKey(a.id, ['read']);
    const dry = await apply(key, true);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toContain('Plan:');
    const real = await apply(key, false);
    expect(real.code).toBe(2);
    expect(real.err).toContain('needs the write scope');
    expect(real.requests).toEqual(['GET /api/v1/api-keys/current']);
  });
});
