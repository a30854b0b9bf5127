import { defineConfig } from 'vitest/config';

// The cluster specs, against the cluster e2e/cluster/run.mjs started. Two files at a time: the
// scheduled-jobs spec spends most of its time waiting for the next minute.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.spec.ts'],
    environment: 'node',
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
