import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createApartment, createBuilding, createProject } from '../helpers/factories.js';

/** Issue 25, item 6: errors a client can act on. */
describe('batch conflicts name the item; body-less POSTs take an empty JSON body', () => {
  let t: TestApp;
  let a: TestOrg;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Actionable');
  });
  afterAll(async () => t?.close());

  const count = async (buildingId: string) =>
    (await t.request({ method: 'GET', url: '/api/v1/apartment', key: a.key, query: { buildingId } })).json().count as number;

  it('bulk create: a name another apartment of the building holds is 409 naming apartments[i] and the name; nothing created', async () => {
    const { building, apartment } = await createProject(t, a.key);
    const taken = (await t.request({ method: 'GET', url: `/api/v1/apartment/${apartment.id}`, key: a.key })).json().name as string;
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/apartment/bulk',
      key: a.key,
      body: { buildingId: building.id, apartments: [{ name: 'Free 1' }, { name: 'Free 2' }, { name: ` ${taken.toUpperCase()} ` }] },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`apartments[2].name "${taken.toUpperCase()}" is already the name of apartment ${apartment.id} in building ${building.id}`);
    expect(await count(building.id)).toBe(1);
  });

  it('upsert: a new item taking an existing name is 409 naming it; an item renaming the holder in the same call frees the name', async () => {
    const { building } = await createProject(t, a.key);
    const holder = await createApartment(t, a.key, building.id, { name: 'A 1.01', externalId: 'HOLD-1' });
    const upsert = (apartments: unknown[]) =>
      t.request({ method: 'POST', url: '/api/v1/apartment/upsert', key: a.key, body: { buildingId: building.id, apartments } });
    const clash = await upsert([
      { externalId: 'NEW-1', name: 'A 1.02' },
      { externalId: 'NEW-2', name: 'a 1.01' },
    ]);
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe(`apartments[1].name "a 1.01" is already the name of apartment ${holder.id} in building ${building.id}`);
    expect(await count(building.id)).toBe(2);
    // The holder is in the batch and gives the name up: no clash.
    const swap = await upsert([
      { externalId: 'HOLD-1', name: 'A 1.01 old' },
      { externalId: 'NEW-2', name: 'A 1.01' },
    ]);
    expect(swap.statusCode, swap.body).toBe(200);
  });

  it('bulk PATCH: a rename or a move onto a taken name is 409 naming the item', async () => {
    const { estate, building, apartment } = await createProject(t, a.key);
    const other = await createBuilding(t, a.key, estate.id);
    const x = await createApartment(t, a.key, building.id, { name: 'X 1' });
    const y = await createApartment(t, a.key, other.id, { name: 'X 1' });
    const patch = (apartments: unknown[]) => t.request({ method: 'PATCH', url: '/api/v1/apartment/bulk', key: a.key, body: { apartments } });
    const moved = await patch([
      { id: apartment.id, priceCents: 1 },
      { id: y.id, buildingId: building.id },
    ]);
    expect(moved.statusCode).toBe(409);
    expect(moved.json().message).toBe(`apartments[1].name "X 1" is already the name of apartment ${x.id} in building ${building.id}`);
    const twice = await patch([
      { id: x.id, name: 'Same' },
      { id: y.id, name: 'same', buildingId: building.id },
    ]);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(`apartments[1].name "same" repeats apartments[0].name in building ${building.id}`);
    expect((await t.request({ method: 'GET', url: `/api/v1/apartment/${apartment.id}`, key: a.key })).json().priceCents).toBeNull();
  });

  it('a body-less POST with Content-Type: application/json and no body is answered (rotate-secret, retry)', async () => {
    const hook = await t.request({ method: 'POST', url: '/api/v1/webhooks', key: a.key, body: { url: 'http://127.0.0.1:9/a', events: ['*'] } });
    expect(hook.statusCode, hook.body).toBe(201);
    const id = hook.json().id as string;
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'application/json; charset=utf-8', 'content-length': '0' }]) {
      const rotated = await t.app.inject({
        method: 'POST',
        url: `/api/v1/webhooks/${id}/rotate-secret`,
        headers: { authorization: `Bearer ${a.key}`, ...headers },
      });
      expect(rotated.statusCode, rotated.body).toBe(200);
      expect(rotated.json().secret).toMatch(/^whsec_/);
    }
    const retried = await t.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${id}/deliveries/00000000-0000-7000-8000-000000000000/retry`,
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
    });
    expect(retried.statusCode, retried.body).toBe(404);
    // A route that needs a body still says so; a malformed one is still 400.
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/v1/estate',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'The request body must be a JSON object' });
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/v1/estate',
      payload: '{',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/api/v1/estate',
      payload: '{"name":"P","__proto__":{"x":1}}',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
    });
    expect(poisoned.statusCode).toBe(400);
  });
});
