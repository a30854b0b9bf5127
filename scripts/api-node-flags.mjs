// Node's command-line flags the API runs with (decision 0038). V8 sizes its young generation
// when the heap is created, so these cannot come from inside the process: `npm start` puts them
// on its own command line (package.json, checked against these by
// apps/api/test/api-node-flags.test.ts); `npm run cluster`, the e2e runner and the benchmarks
// pass them to the processes they start. Flags V8 reads while running are set by the API
// itself (apps/api/src/lib/heap-tuning.ts).
// --max-semi-space-size=8: a young generation of 2 × 8 MB, not V8's 2 × 16 MB (~16 MB less
// resident under load; with pretenuring off, no slower on the reads).
export const API_NODE_FLAGS = Object.freeze(['--max-semi-space-size=8']);
