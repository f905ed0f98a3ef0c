import { defineConfig } from 'vitest/config';

/**
 * The scale-out suite (scale-out/): real server processes behind nginx, on PostgreSQL. A suite of
 * its own in `npm test`, run alone: it starts several processes and wants the cores.
 */
export default defineConfig({
  test: {
    include: ['scale-out/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
