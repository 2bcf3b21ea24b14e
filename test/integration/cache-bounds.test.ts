import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeQueries } from '../../src/db/client.js';
import { LIST_VARIANTS } from '../../src/modules/apartments/lists.js';
import { PAGE_VARIANTS } from '../../src/modules/pages/service/cache.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { isBackground } from '../helpers/background-statements.js';
import { type SeededPage, seedPage } from '../helpers/page-seed.js';

/**
 * The kept answers as an unfriendly visitor meets them (issue 33), on both engines (on PostgreSQL with the
 * LISTEN connection up, as deployed): filter URLs by the thousand on one estate cannot push out another
 * estate's page or list, the process's kept bytes stay under their bound, and a write of one organization
 * (or an inquiry) leaves every other kept answer in place.
 */
describe('kept answers: bounded per estate and organization, stale only for the organization that wrote', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let pageA: SeededPage;
  let pageB: SeededPage;
  let publishableA: string;
  let publishableB: string;

  beforeAll(async () => {
    t = await createTestApp({
      listen: true,
      // On PostgreSQL kept answers also expire (CACHE_TTL_MS): an hour here, so only eviction or staleness could drop them.
      env: { CACHE_TTL_MS: '3600000', RATE_LIMIT_ANONYMOUS_MAX: '1000000', RATE_LIMIT_KEY_MAX: '1000000', RATE_LIMIT_INQUIRY_MAX: '1000' },
    });
    a = await t.createOrg('Flooded');
    b = await t.createOrg('Bystander');
    pageA = await seedPage(t, a.id, a.key, 4, 'Flooded Estate');
    pageB = await seedPage(t, b.id, b.key, 4, 'Bystander Estate');
    for (const [org, seeded] of [
      [a, pageA],
      [b, pageB],
    ] as const) {
      const res = await t.request({ method: 'PUT', url: `/api/v1/estates/${seeded.estateId}/page`, key: org.key, body: { enabled: true } });
      expect(res.statusCode).toBe(200);
    }
    publishableA = (await t.issueKey(a.id, ['publishable'])).key;
    publishableB = (await t.issueKey(b.id, ['publishable'])).key;
  }, 120_000);
  afterAll(() => t?.close());

  const page = (slug: string) => t.request({ method: 'GET', url: `/p/${slug}` });
  const list = (key: string, seeded: SeededPage, query = '') => t.request({ method: 'GET', url: `/api/v1/apartment?estateId=${seeded.estateId}${query}`, key });
  const navigator = () => t.request({ method: 'GET', url: `/api/v1/navigator/${pageB.navigatorId}`, key: b.key });
  /** B's page, list and navigator, and the statements they cost (the webhook worker's idle claims aside). */
  async function readB(): Promise<string[]> {
    const statements: string[] = [];
    observeQueries(t.db, (sql) => isBackground(sql) || statements.push(sql));
    try {
      for (const res of [await page(pageB.slug), await list(publishableB, pageB), await navigator()]) expect(res.statusCode).toBe(200);
    } finally {
      observeQueries(t.db, undefined);
    }
    return statements;
  }

  it('10,000 filter URLs on estate A and 1,000 list searches of its publishable key: B’s page, list and navigator are still kept, the bytes bounded', async () => {
    await readB();
    expect(await readB()).toEqual([]);
    const store = t.app.services.caching.store;
    const before = store.bytes;
    // Now and then a turn of the event loop for timers and I/O (the test runner's own messages).
    const breathe = (i: number) => (i % 250 === 0 ? new Promise((r) => setImmediate(r)) : undefined);
    for (let price = 1; price <= 10_000; price++) {
      expect((await page(`${pageA.slug}?maxPrice=${price}`)).statusCode).toBe(200);
      await breathe(price);
    }
    for (let i = 0; i < 1_000; i++) {
      expect((await list(publishableA, pageA, `&q=${i}`)).statusCode).toBe(200);
      await breathe(i);
    }
    // A's variants displaced only each other: what the flood added is at most one partition of each kind.
    expect(store.bytes - before).toBeLessThanOrEqual(PAGE_VARIANTS.maxBytes + 2 * LIST_VARIANTS.maxBytes + 64 * 1024);
    expect(store.bytes).toBeLessThanOrEqual(store.maxBytes);
    expect(await readB()).toEqual([]);
    // The flooded page still answers its own variants right.
    const filtered = await page(`${pageA.slug}?status=SOLD`);
    const sold = pageA.apartments.filter((x) => x.status === 'SOLD');
    for (const s of sold) expect(filtered.body).toContain(`<tr data-apartment-id="${s.id}"`);
  }, 600_000);

  it('a write in organization A leaves B’s page, list and navigator kept; A’s page shows the write', async () => {
    await readB();
    const target = pageA.apartments.find((x) => x.status === 'ACTIVE')!;
    const patched = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${target.id}`, key: a.key, body: { name: 'Written in A' } });
    expect(patched.statusCode).toBe(200);
    // On PostgreSQL the write's notification arrives within milliseconds: B is read for half a second after it.
    for (const started = Date.now(); Date.now() - started < 500; ) {
      expect(await readB()).toEqual([]);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await page(pageA.slug)).body).toContain('Written in A');
  });

  it('an inquiry does not make the page it was sent from stale', async () => {
    await page(pageA.slug);
    const sent = await t.request({
      method: 'POST',
      url: `/api/v1/estates/${pageA.estateId}/inquiries`,
      body: { name: 'Visitor', email: 'visitor@example.com' },
    });
    expect(sent.statusCode).toBe(201);
    const statements: string[] = [];
    observeQueries(t.db, (sql) => isBackground(sql) || statements.push(sql));
    try {
      for (const started = Date.now(); Date.now() - started < 300; ) {
        expect((await page(pageA.slug)).statusCode).toBe(200);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      observeQueries(t.db, undefined);
    }
    expect(statements).toEqual([]);
  });
});
