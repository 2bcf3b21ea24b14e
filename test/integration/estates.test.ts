import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { expect422, expectError, expectUnreadableBodies } from '../helpers/bad-input.js';
import { createBuilding, createEstate } from '../helpers/factories.js';

const MISSING = '01890000-0000-7000-8000-000000000000';

describe('estates', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Estates A', ['estates']);
    b = await t.createOrg('Estates B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
  });
  afterAll(async () => t?.close());

  describe('POST /api/v1/estate', () => {
    it('creates an estate with a generated slug, defaults and the organization embedded', async () => {
      const res = await t.request({ method: 'POST', url: '/api/v1/estate', key: a.key, body: { name: '  Żoliborz Park II ', description: 'By the river' } });
      expect(res.statusCode).toBe(201);
      const e = res.json();
      expect(e).toMatchObject({
        name: 'Żoliborz Park II',
        slug: 'zoliborz-park-ii',
        description: 'By the river',
        organizationId: a.id,
        organization: { id: a.id, name: 'Estates A', featureFlags: ['estates'] },
        buildings: [],
        isPreview: false,
        subscriptionStatus: 'DRAFT',
        manuallyActivatedAt: null,
        navigatorId: null,
      });
      expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(e.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const read = await t.request({ method: 'GET', url: `/api/v1/estate/${e.id}`, key: a.key });
      expect(read.json()).toEqual(e);
    });

    it('suffixes a generated slug on a clash, even across organizations', async () => {
      const first = await createEstate(t, a.key, { name: 'Slug Clash' });
      const second = await createEstate(t, b.key, { name: 'slug clash' });
      const third = await createEstate(t, b.key, { name: 'Slug  Clash!' });
      expect([first.slug, second.slug, third.slug]).toEqual(['slug-clash', 'slug-clash-2', 'slug-clash-3']);
    });

    it('concurrent creates of one name in many organizations all succeed with distinct slugs', async () => {
      const orgs = await Promise.all(Array.from({ length: 8 }, (_, i) => t.createOrg(`Racer ${i}`)));
      const results = await Promise.all(orgs.map((o) => t.request({ method: 'POST', url: '/api/v1/estate', key: o.key, body: { name: 'Parallel Park' } })));
      expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
      const slugs = results.map((r) => r.json().slug as string).sort();
      expect(slugs).toEqual(['parallel-park', ...[2, 3, 4, 5, 6, 7, 8].map((n) => `parallel-park-${n}`)].sort());
    });

    it('409 on a duplicate name in the organization, compared trimmed and case-insensitively', async () => {
      await createEstate(t, a.key, { name: 'Riverside' });
      const dup = await t.request({ method: 'POST', url: '/api/v1/estate', key: a.key, body: { name: '  RIVERSIDE ' } });
      expectError(dup, 409, /name/);
      // The same name in another organization is fine.
      const other = await t.request({ method: 'POST', url: '/api/v1/estate', key: b.key, body: { name: 'Riverside' } });
      expect(other.statusCode).toBe(201);
    });

    it('409 on an explicit slug taken by any organization, case-insensitively', async () => {
      await createEstate(t, a.key, { slug: 'taken-slug' });
      const dup = await t.request({ method: 'POST', url: '/api/v1/estate', key: b.key, body: { name: 'Other', slug: 'taken-slug' } });
      expectError(dup, 409, /slug/);
    });

    it('400 for bodies that cannot be read', async () => {
      await expectUnreadableBodies(t, { method: 'POST', url: '/api/v1/estate', key: a.key });
    });

    it('422 naming the field: missing, unknown, wrong type, too long, blank, bad slug, unknown enum member', async () => {
      const target = { method: 'POST' as const, url: '/api/v1/estate', key: a.key };
      await expect422(t, target, {}, 'name');
      await expect422(t, target, { name: 'X', colour: 'red' }, 'colour');
      await expect422(t, target, { name: 42 }, 'name');
      await expect422(t, target, { name: 'x'.repeat(201) }, 'name');
      await expect422(t, target, { name: '   ' }, 'name');
      await expect422(t, target, { name: 'Ok', description: 'd'.repeat(20_001) }, 'description');
      await expect422(t, target, { name: 'Ok', slug: 'Not A Slug' }, 'slug');
      await expect422(t, target, { name: 'Ok', subscriptionStatus: 'GOLD' }, 'subscriptionStatus');
      await expect422(t, target, { name: 'Nul\u0000byte' }, 'name');
      expectError(await t.request({ ...target, body: { name: 'Big', description: 'x'.repeat(1_100_000) } }), 413);
      await expect422(t, target, { name: 'Ok', photoUrl: 'javascript:alert(1)' }, 'photoUrl');
      await expect422(t, target, { name: 'Ok', photoUrl: 'data:image/png;base64,AAAA' }, 'photoUrl');
      const both = await t.request({ ...target, body: { name: 1, photoUrl: 2 } });
      const message = expectError(both, 422);
      expect(message).toMatch(/name/);
      expect(message).toMatch(/photoUrl/);
    });

    it('403 when a dashboard-managed field is set to a non-default value; defaults are accepted', async () => {
      const res = await t.request({ method: 'POST', url: '/api/v1/estate', key: a.key, body: { name: 'Dash', subscriptionStatus: 'ACTIVE' } });
      expectError(res, 403, /subscriptionStatus/);
      const ok = await t.request({ method: 'POST', url: '/api/v1/estate', key: a.key, body: { name: 'Dash', subscriptionStatus: 'DRAFT', isPreview: false } });
      expect(ok.statusCode).toBe(201);
    });

    it('401 without a key, 403 with a read-only key', async () => {
      expectError(await t.request({ method: 'POST', url: '/api/v1/estate', body: { name: 'No key' } }), 401);
      expectError(await t.request({ method: 'POST', url: '/api/v1/estate', key: readOnly, body: { name: 'Read only' } }), 403);
    });
  });

  describe('GET /api/v1/estate/{id}', () => {
    it('embeds the buildings', async () => {
      const e = await createEstate(t, a.key);
      const bld = await createBuilding(t, a.key, e.id, { name: 'Tower' });
      const res = await t.request({ method: 'GET', url: `/api/v1/estate/${e.id}`, key: a.key });
      expect(res.statusCode).toBe(200);
      expect(res.json().buildings).toEqual([expect.objectContaining({ id: bld.id, name: 'Tower', estateId: e.id })]);
    });

    it('404 for a missing id, a non-UUID id and another organization’s estate, with the same message shape', async () => {
      const e = await createEstate(t, a.key);
      expectError(await t.request({ method: 'GET', url: `/api/v1/estate/${MISSING}`, key: a.key }), 404, `Estate with id ${MISSING} not found`);
      expectError(await t.request({ method: 'GET', url: '/api/v1/estate/not-a-uuid', key: a.key }), 404, 'Estate with id not-a-uuid not found');
      // Longer than any id: still a 404 naming the estate, not a 400 about the path.
      expectError(await t.request({ method: 'GET', url: `/api/v1/estate/${'x'.repeat(300)}`, key: a.key }), 404, /^Estate with id x+… not found$/);
      const foreign = await t.request({ method: 'GET', url: `/api/v1/estate/${e.id}`, key: b.key });
      expectError(foreign, 404, `Estate with id ${e.id} not found`);
      expect(foreign.json().error).toBe('Not Found');
    });

    it('401 without a key', async () => {
      expectError(await t.request({ method: 'GET', url: `/api/v1/estate/${MISSING}` }), 401);
    });
  });

  describe('PATCH /api/v1/estate/{id}', () => {
    it('changes only the fields sent', async () => {
      const e = await createEstate(t, a.key, { description: 'keep me' });
      const res = await t.request({ method: 'PATCH', url: `/api/v1/estate/${e.id}`, key: a.key, body: { photoUrl: 'https://example.com/p.jpg' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ description: 'keep me', photoUrl: 'https://example.com/p.jpg', name: e.name });
    });

    it('GET-modify-PATCH: the GET body sent back is accepted', async () => {
      const e = await createEstate(t, a.key);
      await createBuilding(t, a.key, e.id);
      const got = (await t.request({ method: 'GET', url: `/api/v1/estate/${e.id}`, key: a.key })).json();
      got.description = 'modified';
      const res = await t.request({ method: 'PATCH', url: `/api/v1/estate/${e.id}`, key: a.key, body: got });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ description: 'modified', id: e.id, organizationId: a.id });
      expect(res.json().buildings).toHaveLength(1);
    });

    it('GET-modify-PATCH still works after the operator set dashboard-managed fields', async () => {
      const e = await createEstate(t, a.key);
      const admin = await t.request({
        method: 'PATCH',
        url: `/api/v1/admin/estates/${e.id}`,
        key: ADMIN_TOKEN,
        body: { subscriptionStatus: 'ACTIVE', isPreview: true, manuallyActivatedAt: '2024-05-01T10:00:00Z', manuallyActivatedById: 'ops-1' },
      });
      expect(admin.statusCode, admin.body).toBe(200);
      expect(admin.json()).toMatchObject({ subscriptionStatus: 'ACTIVE', manuallyActivatedAt: '2024-05-01T10:00:00.000Z' });
      const got = (await t.request({ method: 'GET', url: `/api/v1/estate/${e.id}`, key: a.key })).json();
      const res = await t.request({ method: 'PATCH', url: `/api/v1/estate/${e.id}`, key: a.key, body: { ...got, name: `${e.name} renamed` } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ subscriptionStatus: 'ACTIVE', isPreview: true });
    });

    it('403 when a dashboard-managed field changes', async () => {
      const e = await createEstate(t, a.key);
      for (const body of [
        { subscriptionStatus: 'ACTIVE' },
        { isPreview: true },
        { manuallyActivatedAt: '2024-01-01T00:00:00Z' },
        { manuallyActivatedById: 'me' },
      ]) {
        const res = await t.request({ method: 'PATCH', url: `/api/v1/estate/${e.id}`, key: a.key, body });
        expectError(res, 403, Object.keys(body)[0]!);
      }
      const after = (await t.request({ method: 'GET', url: `/api/v1/estate/${e.id}`, key: a.key })).json();
      expect(after).toMatchObject({ subscriptionStatus: 'DRAFT', isPreview: false, manuallyActivatedAt: null });
    });

    it('edits the slug; 409 on a taken slug or name', async () => {
      const e = await createEstate(t, a.key);
      const other = await createEstate(t, a.key, { slug: 'patch-target-slug' });
      const ok = await t.request({ method: 'PATCH', url: `/api/v1/estate/${e.id}`, key: a.key, body: { slug: 'my-new-slug' } });
      expect(ok.json().slug).toBe('my-new-slug');
      expectError(await t.request({ method: 'PATCH', url: `/api/v1/estate/${e.id}`, key: a.key, body: { slug: 'patch-target-slug' } }), 409, /slug/);
      expectError(
        await t.request({ method: 'PATCH', url: `/api/v1/estate/${e.id}`, key: a.key, body: { name: ` ${other.name.toUpperCase()} ` } }),
        409,
        /name/,
      );
    });

    it('400/422 for bad bodies; 404 foreign; 403 read-only; 401 no key', async () => {
      const e = await createEstate(t, a.key);
      const target = { method: 'PATCH' as const, url: `/api/v1/estate/${e.id}`, key: a.key };
      await expectUnreadableBodies(t, target);
      await expect422(t, target, { name: null }, 'name');
      await expect422(t, target, { unknownField: 1 }, 'unknownField');
      await expect422(t, target, { description: 7 }, 'description');
      await expect422(t, target, { name: 'y'.repeat(201) }, 'name');
      expectError(await t.request({ ...target, key: b.key, body: { description: 'x' } }), 404, `Estate with id ${e.id} not found`);
      expectError(await t.request({ ...target, key: readOnly, body: { description: 'x' } }), 403);
      expectError(await t.request({ ...target, key: undefined, body: { description: 'x' } }), 401);
      const unchanged = (await t.request({ method: 'GET', url: `/api/v1/estate/${e.id}`, key: a.key })).json();
      expect(unchanged.description).toBeNull();
    });
  });

  describe('GET /api/v1/estate', () => {
    let c: TestOrg;
    const ids: string[] = [];
    beforeAll(async () => {
      c = await t.createOrg('Lister');
      for (let i = 0; i < 5; i++) ids.push((await createEstate(t, c.key, { name: `List ${i}` })).id);
    });

    it('is a bare array, newest first, with buildings embedded', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/estate', key: c.key });
      expect(res.statusCode).toBe(200);
      expect(Array.isArray(res.json())).toBe(true);
      expect(res.json().map((e: { id: string }) => e.id)).toEqual([...ids].reverse());
    });

    it('pages with offset and limit, with X-Total-Count and Link headers', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/estate', key: c.key, query: { offset: '1', limit: '2' } });
      expect(res.json().map((e: { id: string }) => e.id)).toEqual([ids[3], ids[2]]);
      expect(res.headers['x-total-count']).toBe('5');
      expect(res.headers.link).toBe('</api/v1/estate?offset=3&limit=2>; rel="next", </api/v1/estate?offset=0&limit=2>; rel="prev"');
      const last = await t.request({ method: 'GET', url: '/api/v1/estate', key: c.key, query: { offset: '3', limit: '2' } });
      expect(last.json().map((e: { id: string }) => e.id)).toEqual([ids[1], ids[0]]);
      expect(last.headers.link).toBe('</api/v1/estate?offset=1&limit=2>; rel="prev"');
      // The default limit (100) holds all five: one page, no Link.
      const all = await t.request({ method: 'GET', url: '/api/v1/estate', key: c.key });
      expect(all.headers['x-total-count']).toBe('5');
      expect(all.headers.link).toBeUndefined();
      const first = await t.request({ method: 'GET', url: '/api/v1/estate', key: c.key, query: { limit: '4' } });
      expect(first.headers.link).toBe('</api/v1/estate?limit=4&offset=4>; rel="next"');
      const foreign = await t.request({ method: 'GET', url: '/api/v1/estate', key: c.key, query: { buildingId: '01890000-0000-7000-8000-000000000009' } });
      expect(foreign.headers['x-total-count']).toBe('0');
    });

    it('filters by buildingId (the estate holding it) and by its own organizationId', async () => {
      const bld = await createBuilding(t, c.key, ids[1]!);
      const res = await t.request({ method: 'GET', url: '/api/v1/estate', key: c.key, query: { buildingId: bld.id } });
      expect(res.json().map((e: { id: string }) => e.id)).toEqual([ids[1]]);
      const foreignBuilding = await t.request({ method: 'GET', url: '/api/v1/estate', key: a.key, query: { buildingId: bld.id } });
      expect(foreignBuilding.json()).toEqual([]);
      const own = await t.request({ method: 'GET', url: '/api/v1/estate', key: c.key, query: { organizationId: c.id } });
      expect(own.json()).toHaveLength(5);
      const ownUpper = await t.request({ method: 'GET', url: '/api/v1/estate', key: c.key, query: { organizationId: c.id.toUpperCase() } });
      expect(ownUpper.json()).toHaveLength(5);
    });

    it('403 for an organizationId naming another organization', async () => {
      expectError(await t.request({ method: 'GET', url: '/api/v1/estate', key: c.key, query: { organizationId: a.id } }), 403, /organizationId/);
    });

    it('never shows another organization’s estates', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/estate', key: c.key, query: { limit: '1000' } });
      expect(res.json().every((e: { organizationId: string }) => e.organizationId === c.id)).toBe(true);
    });

    it('400 naming the parameter for a query of the wrong type or out of range', async () => {
      expectError(await t.request({ method: 'GET', url: '/api/v1/estate?limit=abc', key: c.key }), 400, /limit/);
      expectError(await t.request({ method: 'GET', url: '/api/v1/estate?offset=-1', key: c.key }), 400, /offset/);
      expectError(await t.request({ method: 'GET', url: '/api/v1/estate?limit=1001', key: c.key }), 400, /limit/);
      expectError(await t.request({ method: 'GET', url: '/api/v1/estate?bogus=1', key: c.key }), 400, /bogus/);
    });

    it('401 without a key', async () => {
      expectError(await t.request({ method: 'GET', url: '/api/v1/estate' }), 401);
    });
  });

  describe('POST /api/v1/estate/setup and GET /api/v1/navigator/{id}', () => {
    it('creates estate, "Building 1" and a navigator; the navigator reads back', async () => {
      const res = await t.request({ method: 'POST', url: '/api/v1/estate/setup', key: a.key, body: { name: 'Setup One' } });
      expect(res.statusCode, res.body).toBe(201);
      const { estate, building, navigator } = res.json();
      expect(building).toMatchObject({ name: 'Building 1', estateId: estate.id });
      expect(navigator).toMatchObject({ type: 'image', referenceType: 'estate', referenceId: estate.id, nested: [] });
      expect(navigator.options).toMatchObject({ sourceWidth: expect.any(Number), customTheme: {} });
      expect(estate.navigatorId).toBe(navigator.id);
      expect(estate.buildings).toEqual([building]);
      const nav = await t.request({ method: 'GET', url: `/api/v1/navigator/${navigator.id}`, key: a.key });
      expect(nav.statusCode).toBe(200);
      expect(nav.json()).toEqual(navigator);
      expectError(await t.request({ method: 'GET', url: `/api/v1/navigator/${navigator.id}`, key: b.key }), 404, `Navigator with id ${navigator.id} not found`);
      expectError(await t.request({ method: 'GET', url: '/api/v1/navigator/nope', key: a.key }), 404);
      expectError(await t.request({ method: 'GET', url: `/api/v1/navigator/${navigator.id}` }), 401);
    });

    it('names the building buildingName when given', async () => {
      const res = await t.request({ method: 'POST', url: '/api/v1/estate/setup', key: a.key, body: { name: 'Setup Two', buildingName: ' Block A ' } });
      expect(res.statusCode).toBe(201);
      expect(res.json().building.name).toBe('Block A');
    });

    it('is all or nothing: a duplicate estate name is 409 and leaves nothing behind', async () => {
      await createEstate(t, a.key, { name: 'Setup Dup' });
      const before = (await t.request({ method: 'GET', url: '/api/v1/estate', key: a.key, query: { limit: '1000' } })).json().length;
      expectError(await t.request({ method: 'POST', url: '/api/v1/estate/setup', key: a.key, body: { name: 'setup dup' } }), 409);
      const after = (await t.request({ method: 'GET', url: '/api/v1/estate', key: a.key, query: { limit: '1000' } })).json().length;
      expect(after).toBe(before);
    });

    it('400/422/401/403 for bad calls', async () => {
      const target = { method: 'POST' as const, url: '/api/v1/estate/setup', key: a.key };
      await expectUnreadableBodies(t, target);
      await expect422(t, target, {}, 'name');
      await expect422(t, target, { name: 'S', buildingName: 3 }, 'buildingName');
      await expect422(t, target, { name: 'S', buildingName: 'b'.repeat(201) }, 'buildingName');
      await expect422(t, target, { name: 'S', extra: true }, 'extra');
      expectError(await t.request({ ...target, key: undefined, body: { name: 'S' } }), 401);
      expectError(await t.request({ ...target, key: readOnly, body: { name: 'S' } }), 403);
    });
  });
});
