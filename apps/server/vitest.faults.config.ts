import { defineConfig } from 'vitest/config';

/**
 * The fault suite (faults/): real server processes behind nginx, on PostgreSQL, Redis and an S3
 * bucket that it stops and starts. A suite of its own in `npm test`, run alone.
 */
export default defineConfig({
  test: {
    include: ['faults/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
