import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../helpers/app.js';

describe('health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('GET /health answers without credentials', async () => {
    const res = await t.request({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /health/ready checks the database and storage', async () => {
    const res = await t.request({ method: 'GET', url: '/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok', disk: 'ok' } });
  });

  it('GET /health/ready reports a DATA_DIR disk with less than DISK_MIN_FREE_MB free as full (degraded, still 200)', async () => {
    // A threshold above any real disk's free space: the check reads the file system's own numbers.
    const own = await createTestApp({ env: { DISK_MIN_FREE_MB: '100000000' } });
    try {
      const res = await own.request({ method: 'GET', url: '/health/ready' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'degraded', checks: { database: 'ok', storage: 'ok', disk: 'full' } });
    } finally {
      await own.close();
    }
  });

  it('GET /health/ready is 503 once the database is gone, while /health still answers', async () => {
    const own = await createTestApp();
    try {
      await own.db.close();
      const res = await own.request({ method: 'GET', url: '/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', checks: { database: 'unavailable', storage: 'ok', disk: 'ok' } });
      expect((await own.request({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      // Any other route answers a 5xx in the one error shape, with nothing of the fault in it.
      const org = '01890000-0000-7000-8000-00000000000f';
      const failed = await own.request({ method: 'GET', url: `/api/v1/estate/${org}`, key: 'epk_some-key-that-needs-the-database' });
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
      const body = failed.json();
      expect(Object.keys(body).sort()).toEqual(['error', 'message', 'statusCode']);
      expect(body.message).not.toMatch(/pglite|pool|closed|sql|\bat\b|\.ts|\.js/i);
    } finally {
      await own.close();
    }
  });
});
