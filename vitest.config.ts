import { defineConfig } from 'vitest/config';

// test/postgres holds faults of a PostgreSQL deployment (the server going away); it runs in the
// PostgreSQL pass only, so `npm test` needs nothing but Node.js.
const postgres = process.env.TEST_DATABASE === 'postgres';
// test/contract walks the whole OpenAPI document through Stoplight Prism (about 2-3 minutes on a busy
// 2-core machine): its own script, `npm run test:contract`, which .ci/run runs on both engines.
const contract = process.env.TEST_CONTRACT === '1';
// test/durability SIGKILLs real server processes mid-write (several minutes on a busy 2-core machine):
// its own script, `npm run test:durability`, which .ci/run runs on both engines.
const durability = process.env.TEST_DURABILITY === '1';

export default defineConfig({
  test: {
    include: contract
      ? ['test/contract/**/*.test.ts']
      : durability
        ? ['test/durability/**/*.test.ts']
        : ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'src/**/*.test.ts', ...(postgres ? ['test/postgres/**/*.test.ts'] : [])],
    // PGlite instances are memory-hungry WASM; two workers match the two cores of CI.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // Every answer of the apps tests build is checked against the OpenAPI document (test/helpers/response-contract.ts).
    setupFiles: ['test/helpers/contract-setup.ts'],
    // Each file's line as it finishes, prefixed with the run's elapsed time and files done.
    reporters: ['./test/helpers/progress-reporter.ts'],
    // One migrated PGlite cluster per run; test databases and server processes start from copies of it.
    globalSetup: ['test/helpers/pglite-snapshot.ts'],
    // Limits for a hang, not for speed: a busy 2-core machine runs a process-spawning test several times
    // slower than an idle one (speed is measured in bench/, never asserted here).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
