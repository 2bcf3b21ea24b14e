import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apartmentsRepository } from '../../src/modules/apartments/repository.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createBuilding, createEstate } from '../helpers/factories.js';

/**
 * The list statement (and so the count behind X-Total-Count) reads apartments through an index whatever
 * the statistics say. Stale statistics are made for real: ANALYZE while the organization has one
 * building, then five more buildings' apartments; the planner then believes every apartment is in the
 * first building and, left to itself, scans the whole table.
 */
describe('the list statement uses the indexes whatever the statistics say', () => {
  let t: TestApp;
  let org: TestOrg;
  let first: string;

  const bulk = async (buildingId: string, n: number, prefix: string) => {
    const apartments = Array.from({ length: n }, (_, i) => ({ name: `${prefix}-${i}`, description: 'x'.repeat(200) }));
    const res = await t.request({ method: 'POST', url: '/api/v1/apartment/bulk', key: org.key, body: { buildingId, apartments } });
    expect(res.statusCode, res.body).toBe(201);
  };

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg('Plans');
    const estateId = (await createEstate(t, org.key)).id;
    first = (await createBuilding(t, org.key, estateId, { name: 'First' })).id;
    // Whatever a server's autovacuum would do, these statistics stay as ANALYZE leaves them.
    await t.db.query('ALTER TABLE apartments SET (autovacuum_enabled = false)');
    await bulk(first, 400, 'F');
    await t.db.query('ANALYZE apartments');
    for (let b = 0; b < 5; b++) await bulk((await createBuilding(t, org.key, estateId, { name: `More ${b}` })).id, 800, `M${b}`);
  });
  afterAll(() => t?.close());

  async function plan(preferIndexes: boolean): Promise<string> {
    const statement = apartmentsRepository.listStatement(t.db, org.id, { buildingId: first, sort: 'createdAt', offset: 0, limit: 50 });
    const [text] = (await t.db.queryText(`EXPLAIN (FORMAT JSON) ${statement.sql}`, statement.parameters, { preferIndexes }))!;
    return text!.toString();
  }
  const seqScans = (json: string) => [...json.matchAll(/"Node Type": "Seq Scan",[^}]*?"Relation Name": "apartments"/g)].length;

  it('left to the statistics the planner scans the table; the list statement never does', async () => {
    // The premise: these statistics do make the planner scan every apartment.
    expect(seqScans(await plan(false))).toBeGreaterThan(0);
    expect(seqScans(await plan(true))).toBe(0);
    const res = await t.request({ method: 'GET', url: '/api/v1/apartment', key: org.key, query: { buildingId: first, limit: '50' } });
    expect(res.headers['x-total-count']).toBe('400');
    expect(res.json().items).toHaveLength(50);
  });
});
