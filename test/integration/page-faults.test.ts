import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_NEUTRAL } from '../../src/db/client.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type SeededPage, seedPage } from '../helpers/page-seed.js';

/**
 * A read that fails is never kept (issue 33), on both engines: the navigator's tables made unreadable
 * for a while (a real database error), then readable again without anything that would make a kept
 * answer stale (the statements are marked cache-neutral), so only what the failed read left could be served.
 */
describe('a failed read of the page is never kept', () => {
  let t: TestApp;
  let a: TestOrg;
  let seed: SeededPage;
  const page = () => t.request({ method: 'GET', url: `/p/${seed.slug}` });
  const hideNavigatorTable = (hide: boolean) =>
    t.db.query(
      hide
        ? `${CACHE_NEUTRAL} ALTER TABLE navigator_pois RENAME TO navigator_pois_away`
        : `${CACHE_NEUTRAL} ALTER TABLE navigator_pois_away RENAME TO navigator_pois`,
    );

  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { CACHE_TTL_MS: '3600000' } });
    a = await t.createOrg('Faults');
    seed = await seedPage(t, a.id, a.key, 4, 'Faulty Estate');
    expect((await t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, key: a.key, body: { enabled: true } })).statusCode).toBe(200);
  });
  afterAll(() => t?.close());

  it('the navigator failing fails the page and its navigator read; once readable, the page has its navigator and a new ETag', async () => {
    const before = await page();
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain(`id="navigator-${seed.navigatorId}"`);
    await hideNavigatorTable(true);
    try {
      // A change of the organization: the kept page and navigator are stale, and reading them again fails.
      const renamed = await t.request({ method: 'PATCH', url: `/api/v1/estate/${seed.estateId}`, key: a.key, body: { name: 'Faulty Estate Renamed' } });
      expect(renamed.statusCode).toBe(200);
      const failed = await page();
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
      expect(failed.body).not.toContain('Faulty Estate Renamed');
      expect((await t.request({ method: 'GET', url: `/api/v1/navigator/${seed.navigatorId}`, key: a.key })).statusCode).toBeGreaterThanOrEqual(500);
      expect((await t.request({ method: 'GET', url: `/p/${seed.slug}?status=SOLD` })).statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await hideNavigatorTable(false);
    }
    const after = await page();
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('<h1>Faulty Estate Renamed</h1>');
    expect(after.body).toContain(`id="navigator-${seed.navigatorId}"`);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // Kept now, and its variants are whole too.
    expect((await page()).headers.etag).toBe(after.headers.etag);
    expect((await t.request({ method: 'GET', url: `/p/${seed.slug}?status=SOLD` })).body).toContain(`id="navigator-${seed.navigatorId}"`);
  });
});
