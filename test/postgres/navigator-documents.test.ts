import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, observeQueries } from '../../src/db/client.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { isBackground } from '../helpers/background-statements.js';
import { createInstances } from '../helpers/instances.js';

/**
 * Navigator documents cached per instance on PostgreSQL (src/db/read-cache.ts, channel of
 * migrations/0014): a change to a navigator, a frame, its shapes or the asset it shows, made by
 * another instance or directly in the database, reaches every instance's cache.
 */
describe('navigator documents across instances (PostgreSQL)', () => {
  let apps: FastifyInstance[] = [];
  let dbs: Database[] = [];
  let close: () => Promise<void> = async () => undefined;
  let key: string;
  let orgId: string;
  let nav: string;

  const inject = (app: FastifyInstance, method: string, url: string, body?: unknown) =>
    app.inject({ method: method as never, url, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { payload: body as object } : {}) });
  // biome-ignore lint/suspicious/noExplicitAny: the document is read loosely in assertions
  const read = async (app: FastifyInstance): Promise<any> => (await inject(app, 'GET', `/api/v1/navigator/${nav}`)).json();
  async function seenWithin1s(app: FastifyInstance, check: (doc: { images: Array<Record<string, unknown>> }) => boolean) {
    const started = Date.now();
    while (Date.now() - started < 1_000) {
      if (check(await read(app))) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the other instance still served the old navigator one second after the change');
  }

  beforeAll(async () => {
    ({ apps, dbs, close } = await createInstances(2));
    for (let i = 0; i < 400 && !apps.every((a) => a.services.navigators.documents.isTrusted); i++) await new Promise((r) => setTimeout(r, 25));
    const [a] = apps as [FastifyInstance];
    const org = (
      await a.inject({ method: 'POST', url: '/api/v1/admin/organizations', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { name: 'Nav Docs' } })
    ).json();
    key = org.apiKey;
    orgId = org.organization.id;
    nav = (await inject(a, 'POST', '/api/v1/estate/setup', { name: 'Docs' })).json().navigator.id;
  });
  afterAll(() => close());

  it('a cached navigator costs no statement', async () => {
    const b = apps[1]!;
    expect(b.services.navigators.documents.isTrusted).toBe(true);
    await read(b);
    const statements: string[] = [];
    observeQueries(dbs[1]!, (sql) => isBackground(sql) || statements.push(sql));
    await read(b);
    observeQueries(dbs[1]!, undefined);
    expect(statements).toEqual([]);
  });

  it('a frame added on one instance, its asset changed or its shapes deleted by hand, shows on the other within one second', async () => {
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    await read(b);
    const asset = (await insertAssetRow(dbs[0]!, orgId, { width: 800, height: 600 })).id;
    const frame = (await inject(a, 'POST', `/api/v1/navigator/${nav}/images`, { assetId: asset, angle: 45 })).json();
    await seenWithin1s(b, (doc) => doc.images.length === 1);
    await dbs[0]!.query('UPDATE assets SET placeholder = $1 WHERE id = $2', ['hash', asset]);
    await seenWithin1s(b, (doc) => (doc.images[0]!.asset as { placeholder: string | null }).placeholder === 'hash');
    await dbs[0]!.query('DELETE FROM navigator_frames WHERE id = $1', [frame.id]);
    await seenWithin1s(b, (doc) => doc.images.length === 0);
  });
});
