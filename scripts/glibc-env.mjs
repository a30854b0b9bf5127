// glibc's malloc settings the API runs with (decision 0008). glibc reads them when a process
// starts, so `npm start` sets them on its own command line (package.json, checked against these
// by apps/api/test/glibc-env.test.ts); `npm run cluster` and the benchmarks pass them to the
// processes they start.
// MALLOC_ARENA_MAX: two arenas, not 8 per core (~100 MB less resident under load).
// MALLOC_TRIM_THRESHOLD_: up to 16 MB kept free before memory goes back to the system; with the
// default (128 KB) the heap was trimmed after nearly every search answer and faulted in again.
export const GLIBC_ENV = Object.freeze({
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '16777216',
});
