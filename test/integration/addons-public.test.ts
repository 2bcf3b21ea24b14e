import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressionStats } from '../../src/http/compression.js';
import { detachAssetFromAddons } from '../../src/modules/addons/asset-references.js';
import { MISSING_ID, call, expectContiguous, expectError } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { isBackground } from '../helpers/background-statements.js';
import { createEstate } from '../helpers/factories.js';

const ADDONS = ['investment', 'gallery', 'map', 'downloads'] as const;

describe('add-on public reads and asset deletion', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let estate: string;
  let assetId: string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Public A');
    b = await t.createOrg('Public B');
    estate = (await createEstate(t, a.key)).id;
    assetId = (await insertAssetRow(t.db, a.id, { mimeType: 'image/jpeg' })).id;
    const e = `/api/v1/estates/${estate}`;
    const section = await call(t, 'POST', `${e}/investment/sections`, a.key, { title: 'Plan', description: '<p>x</p>' }, 201);
    await call(t, 'POST', `${e}/investment/sections/${section.id}/files`, a.key, { assetId, label: 'Render' }, 201);
    await call(t, 'POST', `${e}/gallery/items`, a.key, { assetId, caption: 'Front' }, 201);
    await call(t, 'PUT', `${e}/map`, a.key, { centerLat: 50, centerLng: 20, logoAssetId: assetId }, 200);
    await call(t, 'POST', `${e}/map/pois`, a.key, { category: 'FOOD', label: 'Cafe', lat: 50.001, lng: 20 }, 201);
    const group = await call(t, 'POST', `${e}/downloads/groups`, a.key, { title: 'Files' }, 201);
    await call(t, 'POST', `${e}/downloads/groups/${group.id}/items`, a.key, { assetId }, 201);
  });
  afterAll(async () => t?.close());

  it('anonymous callers and other organizations see an off add-on as empty; the owner sees its content', async () => {
    for (const addon of ADDONS) {
      const url = `/api/v1/estates/${estate}/${addon}`;
      const anonymous = await t.request({ method: 'GET', url });
      expect(anonymous.statusCode, addon).toBe(200);
      expect(anonymous.body, addon).not.toContain(assetId);
      expect(anonymous.json().enabled).toBe(false);
      expect(anonymous.headers['cache-control']).toBe('public, max-age=30');
      const foreign = await t.request({ method: 'GET', url, key: b.key });
      expect(foreign.body).toBe(anonymous.body);
      const owner = await t.request({ method: 'GET', url, key: a.key });
      expect(owner.statusCode).toBe(200);
      expect(owner.body, addon).toContain(assetId);
      expect(owner.headers['cache-control']).toBe('private, no-store');
    }
    expect((await call(t, 'GET', `/api/v1/estates/${estate}/gallery`, undefined)).items).toEqual([]);
    expect(await call(t, 'GET', `/api/v1/estates/${estate}/map`, undefined)).toMatchObject({ centerLat: null, pois: [], tiles: null, logoAsset: null });
  });

  it('once enabled, anonymous reads show the content with an ETag and answer If-None-Match with 304', async () => {
    for (const addon of ADDONS) {
      const url = `/api/v1/estates/${estate}/${addon}`;
      await call(t, 'PUT', url, a.key, { enabled: true }, 200);
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json().enabled).toBe(true);
      expect(res.body).toContain(assetId);
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^".+"$/);
      const again = await t.request({ method: 'GET', url, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const stale = await t.request({ method: 'GET', url, headers: { 'if-none-match': '"other"' } });
      expect(stale.statusCode).toBe(200);
      expect(stale.body).toBe(res.body);
    }
  });

  it('a document of 1 KB or more goes compressed as a browser asks for it (br, else gzip), with the same ETag and Vary on both', async () => {
    const url = `/api/v1/estates/${estate}/gallery`;
    await call(t, 'PUT', url, a.key, { enabled: true }, 200);
    for (let i = 0; i < 8; i++)
      await call(t, 'POST', `${url}/items`, a.key, { assetId, caption: `View ${i} of the courtyard garden from the south terrace, morning light` }, 201);
    const plain = await t.request({ method: 'GET', url });
    expect(plain.rawPayload.length).toBeGreaterThanOrEqual(1024);
    const madeBefore = compressionStats.made;
    for (let round = 0; round < 3; round++) {
      const br = await t.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.etag).toBe(plain.headers.etag);
      expect(br.headers.vary).toMatch(/authorization.*accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      const gz = await t.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    }
    // Kept with the document: one compression per encoding for all three rounds, not one per request.
    expect(compressionStats.made - madeBefore).toBe(2);
  });

  it('a write is visible to the next read, and changes the ETag', async () => {
    const url = `/api/v1/estates/${estate}/gallery`;
    const before = await t.request({ method: 'GET', url });
    const item = await call(t, 'POST', `${url}/items`, a.key, { assetId, caption: 'New' }, 201);
    const after = await t.request({ method: 'GET', url, headers: { 'if-none-match': before.headers.etag as string } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().items.map((i: { id: string }) => i.id)).toContain(item.id);
    await call(t, 'PUT', url, a.key, { enabled: false }, 200);
    expect((await call(t, 'GET', url, undefined)).items).toEqual([]);
    await call(t, 'PUT', url, a.key, { enabled: true }, 200);
  });

  it('an unknown estate is 404 for everyone; a malformed or revoked key is 401, not the anonymous view', async () => {
    for (const addon of ADDONS) {
      expectError(await t.request({ method: 'GET', url: `/api/v1/estates/${MISSING_ID}/${addon}` }), 404, `Estate with id ${MISSING_ID} not found`);
      expectError(await t.request({ method: 'GET', url: `/api/v1/estates/nope/${addon}`, key: a.key }), 404, /Estate/);
      expectError(await t.request({ method: 'GET', url: `/api/v1/estates/${estate}/${addon}`, key: 'wrong-key' }), 401);
    }
  });

  it('builds each document in a fixed number of queries, whatever the number of children', async () => {
    const count = async (n: number) => {
      const e = (await createEstate(t, a.key)).id;
      const url = `/api/v1/estates/${e}/gallery`;
      for (let s = 0; s < n; s++) {
        const section = await call(t, 'POST', `${url}/sections`, a.key, { title: `S${s}` }, 201);
        for (let i = 0; i < n; i++) await call(t, 'POST', `${url}/items`, a.key, { assetId, sectionId: section.id }, 201);
      }
      const original = t.db.query.bind(t.db);
      let queries = 0;
      t.db.query = ((sql: string, params?: readonly unknown[]) => {
        // The webhook delivery worker polls the same database in the background; not the request's statements.
        if (!isBackground(sql)) queries++;
        return original(sql, params);
      }) as typeof t.db.query;
      try {
        await call(t, 'GET', url, a.key, undefined, 200);
      } finally {
        t.db.query = original;
      }
      return queries;
    };
    const small = await count(1);
    expect(await count(4)).toBe(small);
  });

  it('DELETE /api/v1/asset/{id} detaches the asset from every add-on in its transaction, and public reads change at once', async () => {
    const e = `/api/v1/estates/${(await createEstate(t, a.key)).id}`;
    const doomed = (await insertAssetRow(t.db, a.id, { mimeType: 'image/webp' })).id;
    const kept = (await insertAssetRow(t.db, a.id, { mimeType: 'image/webp' })).id;
    await call(t, 'PUT', `${e}/gallery`, a.key, { enabled: true }, 200);
    const section = await call(t, 'POST', `${e}/gallery/sections`, a.key, { title: 'All' }, 201);
    for (const assetId of [kept, doomed, kept, doomed, kept]) await call(t, 'POST', `${e}/gallery/items`, a.key, { assetId, sectionId: section.id }, 201);
    await call(t, 'PUT', `${e}/downloads`, a.key, { enabled: true }, 200);
    const group = await call(t, 'POST', `${e}/downloads/groups`, a.key, { title: 'Files' }, 201);
    for (const assetId of [doomed, kept]) await call(t, 'POST', `${e}/downloads/groups/${group.id}/items`, a.key, { assetId }, 201);
    await call(t, 'PUT', `${e}/map`, a.key, { enabled: true, logoAssetId: doomed }, 200);
    const before = await t.request({ method: 'GET', url: `${e}/gallery` });
    expect(before.json().sections[0].items).toHaveLength(5);

    const del = await t.request({ method: 'DELETE', url: `/api/v1/asset/${doomed}`, key: a.key });
    expect(del.statusCode, del.body).toBe(204);
    const after = await t.request({ method: 'GET', url: `${e}/gallery`, headers: { 'if-none-match': before.headers.etag as string } });
    expect(after.statusCode).toBe(200);
    const items = after.json().sections[0].items;
    expect(items.map((i: { assetId: string }) => i.assetId)).toEqual([kept, kept, kept]);
    expectContiguous(items);
    const downloads = await call(t, 'GET', `${e}/downloads`, undefined, undefined, 200);
    expect(downloads.groups[0].items.map((i: { assetId: string; order: number }) => [i.assetId, i.order])).toEqual([[kept, 0]]);
    expect(await call(t, 'GET', `${e}/map`, undefined, undefined, 200)).toMatchObject({ enabled: true, logoAssetId: null, logoAsset: null });
  });

  it('deleting an asset removes the children that reference it and clears the map logo, keeping positions contiguous', async () => {
    const e = `/api/v1/estates/${estate}`;
    const keep = (await insertAssetRow(t.db, a.id, { mimeType: 'image/png' })).id;
    await call(t, 'POST', `${e}/gallery/items`, a.key, { assetId: keep, caption: 'Keep', order: 0 }, 201);
    const before = await call(t, 'GET', `${e}/gallery`, undefined);
    await t.db.transaction(async (tx) => {
      await tx.query('DELETE FROM assets WHERE organization_id = $1 AND id = $2', [a.id, assetId]);
      await detachAssetFromAddons(tx, a.id, assetId);
    });
    const gallery = await call(t, 'GET', `${e}/gallery`, undefined);
    expect(gallery.items.map((i: { assetId: string }) => i.assetId)).toEqual([keep]);
    expectContiguous(gallery.items);
    expect(JSON.stringify(gallery)).not.toBe(JSON.stringify(before));
    const investment = await call(t, 'GET', `${e}/investment`, a.key);
    expect(investment.sections[0].files).toEqual([]);
    const downloads = await call(t, 'GET', `${e}/downloads`, a.key);
    expect(downloads.groups[0].items).toEqual([]);
    const map = await call(t, 'GET', `${e}/map`, a.key);
    expect(map).toMatchObject({ logoAssetId: null, logoAsset: null, centerLat: 50 });
    expect(map.pois).toHaveLength(1);
  });
});
