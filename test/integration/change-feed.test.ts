import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { expectError } from '../helpers/bad-input.js';
import { createApartment, createBuilding, createEstate } from '../helpers/factories.js';

interface Page {
  items: Array<Record<string, unknown> & { id: string }>;
  nextCursor: string;
}

/**
 * Rounds a reader may take to catch up once the writers have stopped. The feed holds back a change
 * while an older transaction anywhere on the server is still running (other test files share the
 * PostgreSQL server), so catching up can take several rounds; it is not a timing assertion.
 */
const CATCH_UP_ROUNDS = 600;

describe('change feeds', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;

  const page = async (path: 'apartment' | 'inquiry', cursor?: string, opts: { key?: string; limit?: number } = {}): Promise<Page> => {
    const query: Record<string, string> = {};
    if (cursor !== undefined) query.cursor = cursor;
    if (opts.limit !== undefined) query.limit = String(opts.limit);
    const res = await t.request({ method: 'GET', url: `/api/v1/${path}/changes`, key: opts.key ?? a.key, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  /**
   * Follows nextCursor until `n` items came (or the rounds run out), as a client polling the feed
   * does: the items in the order the pages gave them, and the cursor after them.
   */
  async function collect(path: 'apartment' | 'inquiry', from: string | undefined, n: number, opts: { key?: string; limit?: number } = {}) {
    const items: Page['items'] = [];
    let cursor = from;
    for (let round = 0; round < CATCH_UP_ROUNDS && items.length < n; round++) {
      const p = await page(path, cursor, opts);
      if (opts.limit !== undefined) expect(p.items.length).toBeLessThanOrEqual(opts.limit);
      items.push(...p.items);
      cursor = p.nextCursor;
      if (p.items.length === 0) await sleep(50);
    }
    return { items, nextCursor: cursor as string };
  }

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Feed A');
    b = await t.createOrg('Feed B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
  });
  afterAll(async () => t?.close());

  describe('GET /api/v1/apartment/changes', () => {
    it('lists creations and changes oldest first, each once in its latest state, and pages by limit', async () => {
      const start = await page('apartment');
      expect(start.items).toEqual([]);
      const buildingId = (await createBuilding(t, a.key, (await createEstate(t, a.key)).id)).id;
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await createApartment(t, a.key, buildingId, { name: `F ${i}`, externalId: `f-${i}` }));
      // Pages of at most two (collect checks each page's length); on PostgreSQL a page may hold fewer
      // while another test's older transaction is open, so only the concatenation is compared.
      const all = await collect('apartment', start.nextCursor, 5, { limit: 2 });
      expect(all.items.map((x) => x.id)).toEqual(made.map((x) => x.id));
      expect(all.items[0]).toMatchObject({ name: 'F 0', buildingId, building: { id: buildingId } });
      expect(all.items[0]).not.toHaveProperty('organizationId');
      expect(all.items[0]).not.toHaveProperty('changeXid');
      const quiet = await page('apartment', all.nextCursor);
      expect(quiet.items).toEqual([]);
      expect(quiet.nextCursor).toBe(all.nextCursor);

      // Three changes of F 1, then one of F 3, while nobody reads: F 1 once in its latest state, then F 3.
      for (const price of [1, 2, 3]) await t.request({ method: 'PATCH', url: `/api/v1/apartment/${made[1]!.id}`, key: a.key, body: { priceCents: price } });
      await t.request({ method: 'PATCH', url: `/api/v1/apartment/${made[3]!.id}`, key: a.key, body: { status: 'SOLD' } });
      const changed = await collect('apartment', quiet.nextCursor, 2);
      expect(changed.items.map((x) => [x.id, x.priceCents ?? x.status])).toEqual([
        [made[1]!.id, 3],
        [made[3]!.id, 'SOLD'],
      ]);

      // A bulk PATCH and an upsert are changes; an upsert that only stamps lastSynchronizedAt is not.
      await t.request({ method: 'PATCH', url: '/api/v1/apartment/bulk', key: a.key, body: { apartments: [{ externalId: 'f-4', isPromoted: true }] } });
      await t.request({
        method: 'POST',
        url: '/api/v1/apartment/upsert',
        key: a.key,
        body: { buildingId, apartments: [{ externalId: 'f-0' }, { externalId: 'f-2', priceCents: 9 }, { externalId: 'f-new', name: 'F new' }] },
      });
      const synced = await collect('apartment', changed.nextCursor, 3);
      expect(synced.items.map((x) => x.externalId)).toEqual(['f-4', 'f-2', 'f-new']);
      // From the beginning again: every apartment once.
      expect((await page('apartment')).items.map((x) => x.externalId).sort()).toEqual(['f-0', 'f-1', 'f-2', 'f-3', 'f-4', 'f-new']);
      expect((await page('apartment', synced.nextCursor)).items).toEqual([]);
    });

    it('shows only the organization’s own apartments; a read-only key may read it; no key 401', async () => {
      const theirs = await createApartment(t, b.key, (await createBuilding(t, b.key, (await createEstate(t, b.key)).id)).id, { name: 'B only' });
      const ours = await page('apartment', undefined, { limit: 5000 });
      expect(ours.items.map((x) => x.id)).not.toContain(theirs.id);
      expect((await collect('apartment', undefined, 1, { key: b.key })).items.map((x) => x.id)).toEqual([theirs.id]);
      // A's cursor in B's feed names no row of B: it hides nothing of A and shows B's rows after it only.
      expect((await page('apartment', ours.nextCursor, { key: b.key })).items.map((x) => x.id)).not.toContain(ours.items[0]?.id);
      expect((await page('apartment', undefined, { key: readOnly })).items.length).toBe(ours.items.length);
      expectError(await t.request({ method: 'GET', url: '/api/v1/apartment/changes' }), 401);
    });

    it('a cursor it did not give out, or a limit out of 1..5,000, is 400 naming it', async () => {
      const bad = (query: Record<string, string>) => t.request({ method: 'GET', url: '/api/v1/apartment/changes', key: a.key, query });
      for (const cursor of [
        'nonsense',
        Buffer.from('v1.1.not-a-uuid').toString('base64url'),
        Buffer.from(`v1.${'9'.repeat(20)}.01890000-0000-7000-8000-000000000000`).toString('base64url'),
        '',
      ]) {
        expectError(await bad({ cursor }), 400, /cursor/);
      }
      expectError(await bad({ cursor: 'x'.repeat(201) }), 400, /cursor/);
      for (const limit of ['0', '5001', 'many']) expectError(await bad({ limit }), 400, /limit/);
      expectError(await bad({ other: '1' }), 400);
    });

    it('a reader racing concurrent writers whose commits land out of order misses no change', async () => {
      const buildingId = (await createBuilding(t, a.key, (await createEstate(t, a.key)).id)).id;
      const from = (await collect('apartment', undefined, (await t.db.query('SELECT id FROM apartments WHERE organization_id = $1', [a.id])).length))
        .nextCursor;
      const WRITERS = 4;
      const ROUNDS = 12;
      const owned: string[][] = [];
      for (let w = 0; w < WRITERS; w++) {
        owned.push([]);
        for (let i = 0; i < 3; i++) owned[w]!.push((await createApartment(t, a.key, buildingId, { name: `Race ${w}-${i}`, priceCents: 0 })).id);
      }
      // Each apartment has one writer, so its versions rise in that writer's order; the final one is known.
      const finalPrice = new Map<string, number>();
      let writing = true;
      let absorbed = 0;
      const writer = async (w: number) => {
        for (let round = 1; round <= ROUNDS; round++) {
          const id = owned[w]![round % 3]!;
          const price = round;
          if ((w + round) % 2 === 0) {
            // A transaction held open a little: it started (and took its id) before others that commit first.
            const tx = await t.db.begin();
            try {
              await tx.query('UPDATE apartments SET price_cents = $1, updated_at = now() WHERE organization_id = $2 AND id = $3', [price, a.id, id]);
              await sleep(5 + ((w * 7 + round * 3) % 20));
              await tx.commit();
            } catch (err) {
              await tx.rollback();
              throw err;
            }
          } else {
            const res = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${id}`, key: a.key, body: { priceCents: price } });
            expect(res.statusCode, res.body).toBe(200);
          }
          finalPrice.set(id, price);
          if (round % 4 === 0) {
            const made = await createApartment(t, a.key, buildingId, { name: `Race new ${w}-${round}`, priceCents: 0 });
            finalPrice.set(made.id, 0);
          }
        }
      };
      const seen = new Map<string, number>();
      let regressions = 0;
      const absorb = (p: Page) => {
        for (const item of p.items) {
          const price = item.priceCents as number;
          if ((seen.get(item.id) ?? -1) > price) regressions++;
          seen.set(item.id, price);
          absorbed++;
        }
      };
      const reader = async () => {
        let cursor = from;
        while (writing) {
          const p = await page('apartment', cursor);
          absorb(p);
          cursor = p.nextCursor;
          await sleep(1);
        }
        return cursor;
      };
      const racing = reader();
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
      writing = false;
      const cursor = await racing;
      // Writers done: the reader keeps following its cursor until it has every final state (or gives up).
      let after = cursor;
      for (let round = 0; round < CATCH_UP_ROUNDS && ![...finalPrice].every(([id, price]) => seen.get(id) === price); round++) {
        const p = await page('apartment', after);
        absorb(p);
        after = p.nextCursor;
        if (p.items.length === 0) await sleep(50);
      }
      expect(finalPrice.size).toBe(WRITERS * 3 + WRITERS * Math.floor(ROUNDS / 4));
      expect(Object.fromEntries([...finalPrice].map(([id]) => [id, seen.get(id)]))).toEqual(Object.fromEntries(finalPrice));
      expect(regressions).toBe(0);
      expect(absorbed).toBeGreaterThanOrEqual(finalPrice.size);
    });
  });

  describe('GET /api/v1/inquiry/changes', () => {
    it('lists new inquiries and status changes, oldest first, only the organization’s own', async () => {
      const estateId = (await createEstate(t, a.key)).id;
      const otherEstate = (await createEstate(t, b.key)).id;
      const start = (await page('inquiry')).nextCursor;
      const submit = async (estate: string, name: string) =>
        (await t.request({ method: 'POST', url: `/api/v1/estates/${estate}/inquiries`, body: { name, email: 'p@example.com' } })).json().id as string;
      const one = await submit(estateId, 'One');
      const two = await submit(estateId, 'Two');
      const theirs = await submit(otherEstate, 'Theirs');
      const fresh = await collect('inquiry', start, 2);
      expect(fresh.items.map((x) => [x.id, x.status])).toEqual([
        [one, 'NEW'],
        [two, 'NEW'],
      ]);
      expect(fresh.items[0]).not.toHaveProperty('changeXid');
      await t.request({ method: 'PATCH', url: `/api/v1/inquiry/${one}`, key: a.key, body: { status: 'WON' } });
      const changed = await collect('inquiry', fresh.nextCursor, 1);
      expect(changed.items.map((x) => [x.id, x.status])).toEqual([[one, 'WON']]);
      expect((await page('inquiry', changed.nextCursor)).items).toEqual([]);
      expect((await collect('inquiry', undefined, 1, { key: b.key })).items.map((x) => x.id)).toEqual([theirs]);
      expectError(await t.request({ method: 'GET', url: '/api/v1/inquiry/changes', query: { cursor: 'nonsense' }, key: a.key }), 400, /cursor/);
      expectError(await t.request({ method: 'GET', url: '/api/v1/inquiry/changes' }), 401);
      expect((await page('inquiry', undefined, { key: readOnly })).items.length).toBeGreaterThanOrEqual(2);
    });
  });
});
