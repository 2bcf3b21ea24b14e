import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createApartment, createBuilding, createEstate } from '../helpers/factories.js';

/**
 * The case a plain `updatedAt > x` cursor gets wrong, made to happen on purpose (PostgreSQL only:
 * PGlite runs one transaction at a time, so its commits cannot interleave): a transaction that
 * started first commits last, after a reader has already seen a younger change.
 */
describe('change feed: a transaction that commits after a younger one', () => {
  let t: TestApp;
  let a: TestOrg;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Feed order');
  });
  afterAll(async () => t?.close());

  const page = async (cursor?: string) =>
    (await t.request({ method: 'GET', url: '/api/v1/apartment/changes', key: a.key, ...(cursor ? { query: { cursor } } : {}) })).json() as {
      items: Array<{ id: string; priceCents: number | null }>;
      nextCursor: string;
    };

  it('is still delivered to a reader that read in between', async () => {
    const buildingId = (await createBuilding(t, a.key, (await createEstate(t, a.key)).id)).id;
    const early = await createApartment(t, a.key, buildingId, { name: 'Early', priceCents: 0 });
    const late = await createApartment(t, a.key, buildingId, { name: 'Late', priceCents: 0 });
    let cursor: string | undefined;
    for (let round = 0; round < 600; round++) {
      const p = await page(cursor);
      cursor = p.nextCursor;
      if (p.items.some((x) => x.id === late.id)) break;
      await sleep(50);
    }

    // The slow transaction changes "Early" first (its updated_at is its start time) and stays open.
    const slow = await t.db.begin();
    await slow.query('UPDATE apartments SET price_cents = 1, updated_at = now() WHERE organization_id = $1 AND id = $2', [a.id, early.id]);
    // A younger change commits first, and the reader reads while the slow one is still open.
    await sleep(20);
    const fast = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${late.id}`, key: a.key, body: { priceCents: 2 } });
    expect(fast.statusCode).toBe(200);
    const between = await page(cursor);
    expect(between.items.map((x) => x.id)).not.toContain(early.id);
    cursor = between.nextCursor;
    await slow.commit();

    // Following the cursor, the reader gets the late commit (and the younger change, if it was held back).
    const seen = new Map(between.items.map((x) => [x.id, x.priceCents]));
    for (let round = 0; round < 600 && !(seen.get(early.id) === 1 && seen.get(late.id) === 2); round++) {
      const p = await page(cursor);
      for (const x of p.items) seen.set(x.id, x.priceCents);
      cursor = p.nextCursor;
      if (p.items.length === 0) await sleep(50);
    }
    expect(Object.fromEntries(seen)).toEqual({ [early.id]: 1, [late.id]: 2 });
  });
});
