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
});
