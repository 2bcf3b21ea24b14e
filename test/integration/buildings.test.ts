import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { expect422, expectError, expectUnreadableBodies } from '../helpers/bad-input.js';
import { createBuilding, createEstate } from '../helpers/factories.js';

const MISSING = '01890000-0000-7000-8000-000000000001';

describe('buildings', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;
  let estateId: string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Buildings A');
    b = await t.createOrg('Buildings B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
    estateId = (await createEstate(t, a.key)).id;
  });
  afterAll(async () => t?.close());

  describe('POST /api/v1/building', () => {
    it('creates a building with features', async () => {
      const features = [
        { name: 'Underground parking', description: '120 places', type: 'parking' },
        { name: 'Lift', type: 'elevator' },
      ];
      const res = await t.request({ method: 'POST', url: '/api/v1/building', key: a.key, body: { name: ' Tower A ', estateId, features, source: 'crm' } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        name: 'Tower A',
        estateId,
        source: 'crm',
        description: null,
        features: [features[0], { name: 'Lift', type: 'elevator', description: null }],
      });
      const read = await t.request({ method: 'GET', url: `/api/v1/building/${res.json().id}`, key: a.key });
      expect(read.json()).toEqual(res.json());
    });

    it('409 for a duplicate name within the estate (trimmed, case-insensitive); fine in another estate', async () => {
      await createBuilding(t, a.key, estateId, { name: 'Block C' });
      expectError(await t.request({ method: 'POST', url: '/api/v1/building', key: a.key, body: { name: ' block c', estateId } }), 409, /name/);
      const other = await createEstate(t, a.key);
      expect((await t.request({ method: 'POST', url: '/api/v1/building', key: a.key, body: { name: 'Block C', estateId: other.id } })).statusCode).toBe(201);
    });

    it('404 for a missing, malformed or foreign estateId', async () => {
      expectError(
        await t.request({ method: 'POST', url: '/api/v1/building', key: a.key, body: { name: 'X', estateId: MISSING } }),
        404,
        `Estate with id ${MISSING} not found`,
      );
      expectError(await t.request({ method: 'POST', url: '/api/v1/building', key: a.key, body: { name: 'X', estateId: 'abc' } }), 404);
      expectError(
        await t.request({ method: 'POST', url: '/api/v1/building', key: b.key, body: { name: 'X', estateId } }),
        404,
        `Estate with id ${estateId} not found`,
      );
    });

    it('400/422 for bad bodies', async () => {
      const target = { method: 'POST' as const, url: '/api/v1/building', key: a.key };
      await expectUnreadableBodies(t, target);
      await expect422(t, target, { estateId }, 'name');
      await expect422(t, target, { name: 'N' }, 'estateId');
      await expect422(t, target, { name: 'N', estateId, floors: 3 }, 'floors');
      await expect422(t, target, { name: ['N'], estateId }, 'name');
      await expect422(t, target, { name: 'n'.repeat(201), estateId }, 'name');
      await expect422(t, target, { name: 'N', estateId, features: [{ name: 'Sauna', type: 'sauna' }] }, 'features[0].type');
      await expect422(t, target, { name: 'N', estateId, features: [{ type: 'gym' }] }, 'features[0].name');
    });

    it('401 without a key, 403 read-only', async () => {
      expectError(await t.request({ method: 'POST', url: '/api/v1/building', body: { name: 'N', estateId } }), 401);
      expectError(await t.request({ method: 'POST', url: '/api/v1/building', key: readOnly, body: { name: 'N', estateId } }), 403);
    });
  });

  describe('GET and PATCH /api/v1/building/{id}', () => {
    it('404 for missing, malformed and foreign ids', async () => {
      const bld = await createBuilding(t, a.key, estateId);
      expectError(await t.request({ method: 'GET', url: `/api/v1/building/${MISSING}`, key: a.key }), 404, `Building with id ${MISSING} not found`);
      expectError(await t.request({ method: 'GET', url: '/api/v1/building/1', key: a.key }), 404);
      expectError(await t.request({ method: 'GET', url: `/api/v1/building/${bld.id}`, key: b.key }), 404, `Building with id ${bld.id} not found`);
      expectError(await t.request({ method: 'PATCH', url: `/api/v1/building/${bld.id}`, key: b.key, body: { name: 'Hijack' } }), 404);
      expectError(await t.request({ method: 'GET', url: `/api/v1/building/${bld.id}` }), 401);
    });

    it('changes only the fields sent and replaces features', async () => {
      const bld = await createBuilding(t, a.key, estateId, { description: 'old', features: [{ name: 'Gym', type: 'gym' }] });
      const res = await t.request({ method: 'PATCH', url: `/api/v1/building/${bld.id}`, key: a.key, body: { features: [{ name: 'Pool', type: 'pool' }] } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ description: 'old', features: [{ name: 'Pool', type: 'pool', description: null }] });
    });

    it('GET-modify-PATCH round trip', async () => {
      const bld = await createBuilding(t, a.key, estateId, { features: [{ name: 'Bikes', type: 'bike_room' }] });
      const got = (await t.request({ method: 'GET', url: `/api/v1/building/${bld.id}`, key: a.key })).json();
      got.description = 'round trip';
      const res = await t.request({ method: 'PATCH', url: `/api/v1/building/${bld.id}`, key: a.key, body: got });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().description).toBe('round trip');
    });

    it('a building does not move: another estateId is 422', async () => {
      const bld = await createBuilding(t, a.key, estateId);
      const other = await createEstate(t, a.key);
      expectError(await t.request({ method: 'PATCH', url: `/api/v1/building/${bld.id}`, key: a.key, body: { estateId: other.id } }), 422, /estateId/);
    });

    it('409 on renaming onto a sibling’s name', async () => {
      const one = await createBuilding(t, a.key, estateId, { name: 'Sibling One' });
      const two = await createBuilding(t, a.key, estateId);
      expectError(await t.request({ method: 'PATCH', url: `/api/v1/building/${two.id}`, key: a.key, body: { name: 'SIBLING ONE ' } }), 409);
      expect((await t.request({ method: 'PATCH', url: `/api/v1/building/${one.id}`, key: a.key, body: { name: 'sibling one' } })).statusCode).toBe(200);
    });

    it('400/422 for bad PATCH bodies; 403 read-only', async () => {
      const bld = await createBuilding(t, a.key, estateId);
      const target = { method: 'PATCH' as const, url: `/api/v1/building/${bld.id}`, key: a.key };
      await expectUnreadableBodies(t, target);
      await expect422(t, target, { name: 5 }, 'name');
      await expect422(t, target, { height: 5 }, 'height');
      await expect422(t, target, { description: 'd'.repeat(20_001) }, 'description');
      await expect422(t, target, { features: [{ name: 'x', type: 'moat' }] }, 'features[0].type');
      expectError(await t.request({ ...target, key: readOnly, body: { description: 'x' } }), 403);
    });
  });

  describe('GET /api/v1/building?estateId=', () => {
    let listed: string;
    let names: string[];
    beforeAll(async () => {
      listed = (await createEstate(t, a.key)).id;
      names = ['Tower C', 'Tower A', 'Tower B'];
      for (const name of names) await createBuilding(t, a.key, listed, { name });
      await createBuilding(t, a.key, estateId, { name: 'Elsewhere' });
    });
    const list = (key: string, query: Record<string, string>) => t.request({ method: 'GET', url: '/api/v1/building', key, query });

    it('lists the estate’s buildings oldest first, as a plain array with X-Total-Count', async () => {
      const res = await list(a.key, { estateId: listed });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().map((x: { name: string }) => x.name)).toEqual(names);
      expect(res.json()[0]).toMatchObject({ estateId: listed, features: [], description: null });
      expect(res.headers['x-total-count']).toBe('3');
      expect(res.headers.link).toBeUndefined();
      // The same documents as GET by id.
      const one = await t.request({ method: 'GET', url: `/api/v1/building/${res.json()[1].id}`, key: a.key });
      expect(one.json()).toEqual(res.json()[1]);
    });

    it('pages with offset/limit and links the neighbouring pages (RFC 8288)', async () => {
      const first = await list(a.key, { estateId: listed, limit: '2' });
      expect(first.json().map((x: { name: string }) => x.name)).toEqual(['Tower C', 'Tower A']);
      expect(first.headers['x-total-count']).toBe('3');
      expect(first.headers.link).toBe(`</api/v1/building?estateId=${listed}&limit=2&offset=2>; rel="next"`);
      const second = await list(a.key, { estateId: listed, limit: '2', offset: '2' });
      expect(second.json().map((x: { name: string }) => x.name)).toEqual(['Tower B']);
      expect(second.headers['x-total-count']).toBe('3');
      expect(second.headers.link).toBe(`</api/v1/building?estateId=${listed}&limit=2&offset=0>; rel="prev"`);
      const middle = await list(a.key, { estateId: listed, limit: '1', offset: '1' });
      expect(middle.headers.link).toBe(
        `</api/v1/building?estateId=${listed}&limit=1&offset=2>; rel="next", </api/v1/building?estateId=${listed}&limit=1&offset=0>; rel="prev"`,
      );
      const past = await list(a.key, { estateId: listed, offset: '10' });
      expect(past.json()).toEqual([]);
      expect(past.headers['x-total-count']).toBe('3');
    });

    it('an estate without buildings is an empty list', async () => {
      const empty = (await createEstate(t, a.key)).id;
      const res = await list(a.key, { estateId: empty });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('0');
    });

    it('404 for another organization’s estate, an unknown one or a non-UUID; 400 naming estateId when it is missing', async () => {
      expectError(await list(b.key, { estateId: listed }), 404, `Estate with id ${listed} not found`);
      expectError(await list(a.key, { estateId: MISSING }), 404, MISSING);
      expectError(await list(a.key, { estateId: 'not-a-uuid' }), 404);
      expectError(await list(a.key, {}), 400, /estateId is required/);
      expectError(await list(a.key, { estateId: listed, limit: '0' }), 400, /limit/);
      expectError(await list(a.key, { estateId: listed, limit: '1001' }), 400, /limit/);
      expectError(await list(a.key, { estateId: listed, offset: '-1' }), 400, /offset/);
      expectError(await list(a.key, { estateId: listed, sort: 'name' }), 400, /sort is not allowed/);
      expectError(await t.request({ method: 'GET', url: `/api/v1/building?estateId=${listed}` }), 401);
    });
  });
});
