import { defineConfig } from 'vitest/config';

// The browser tier (npm run test:browser; not part of npm test): the built server on PGlite, a seeded
// estate, Debian's Chromium driven by playwright-core, axe-core and Lighthouse. One file at a time: each
// starts its own server and browser, and Lighthouse needs the CPU to itself.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // What the page does after an action (a fetch, a redraw) on a busy 2-core host: waited for, not timed.
    expect: { poll: { timeout: 20_000, interval: 100 } },
  },
});
