import { defineConfig } from 'vitest/config';

/**
 * The fault tests (issue 20, apps/api/test/faults): real API processes, a private PostgreSQL,
 * Redis, s3rver and nginx, broken on purpose. Slow and process-heavy, so they run on their own
 * (`npm run test:faults`), one file at a time; `npm test` leaves them out.
 */
export default defineConfig({
  test: {
    name: 'faults',
    include: ['apps/api/test/faults/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
