import { defineConfig } from 'vitest/config';

// Browser specs run one file at a time against the product started by run-e2e.mjs.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['specs/*.spec.ts'],
    environment: 'node',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 45_000,
    hookTimeout: 60_000,
  },
});
