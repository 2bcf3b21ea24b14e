import { performance } from 'node:perf_hooks';
/**
 * `POST /api/v1/apartment/bulk` with 5,000 apartments through the whole app (auth, validation, service,
 * one transaction) against the floor: the same 5,000 rows written by the repository's single
 * INSERT ... SELECT FROM jsonb_populate_recordset in one transaction, no HTTP. Alternating, medians.
 *
 *   npx tsx bench/bulk.ts                                  # PGlite
 *   TEST_DATABASE=postgres npx tsx bench/bulk.ts --runs 7  # a fresh PostgreSQL database
 */
import { parseArgs } from 'node:util';
import { newId } from '../src/ids.js';
import { APARTMENT_DEFAULTS, apartmentsRepository } from '../src/modules/apartments/repository.js';
import { createTestApp } from '../test/helpers/app.js';
import { TEST_DATABASE } from '../test/helpers/database.js';
import { createBuilding, createEstate } from '../test/helpers/factories.js';
import { benchApartment as item } from './lib.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(args.runs);
const N = 5000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function bench(engine: string): Promise<void> {
  const t = await createTestApp();
  try {
    const org = await t.createOrg('Bench');
    const estate = await createEstate(t, org.key);
    const service: number[] = [];
    const floor: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const viaApi = await createBuilding(t, org.key, estate.id);
      const direct = await createBuilding(t, org.key, estate.id);
      const body = JSON.stringify({ buildingId: viaApi.id, apartments: Array.from({ length: N }, (_, i) => item(i)) });
      let start = performance.now();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/apartment/bulk',
        payload: body,
        headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
      });
      const apiMs = performance.now() - start;
      if (res.statusCode !== 201) throw new Error(`bulk failed: ${res.statusCode} ${res.body.slice(0, 200)}`);
      const rows = Array.from({ length: N }, (_, i) => ({
        ...APARTMENT_DEFAULTS,
        ...item(i),
        id: newId(),
        organizationId: org.id,
        buildingId: direct.id,
        estateId: estate.id,
        name: `Unit ${i}`,
      }));
      start = performance.now();
      await t.db.transaction((tx) => apartmentsRepository.insertMany(tx, rows as never));
      const floorMs = performance.now() - start;
      if (run > 0) {
        // run 0 warms up both paths
        service.push(apiMs);
        floor.push(floorMs);
      }
    }
    const s = median(service);
    const f = median(floor);
    console.log(`${engine}: service ${s.toFixed(0)} ms, floor ${f.toFixed(0)} ms, ratio ${(s / f).toFixed(2)} (median of ${RUNS}, ${N} apartments)`);
  } finally {
    await t.close();
  }
}

await bench(TEST_DATABASE);
