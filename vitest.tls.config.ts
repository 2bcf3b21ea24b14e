import { defineConfig } from 'vitest/config';

// The TLS tier (npm run test:tls; not part of npm test): Debian's caddy in front of the service with on-demand
// TLS, Debian's pebble as the ACME authority, Chromium opening a custom hostname. One file, one process.
export default defineConfig({
  test: {
    include: ['test/tls/**/*.test.ts'],
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    fileParallelism: false,
    globalSetup: ['test/helpers/pglite-snapshot.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
