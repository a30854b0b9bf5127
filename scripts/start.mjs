// `npm start`: builds the web app and the API when their builds are missing or older than their
// sources, then runs the API and the web server in this process (no child process: the API is
// plain JavaScript from apps/api/build, see scripts/api-build.mjs and decision 0018).
// MALLOC_ARENA_MAX=2 and MALLOC_TRIM_THRESHOLD_ come from the npm script (glibc reads them when
// the process starts, decision 0008): the default of 8 arenas per core let native allocations
// from libuv's and V8's threads spread over many arenas and kept ~100 MB more resident under
// load; the default trim threshold (128 KB) gave memory back to the system after nearly every
// answer and took it again page by page (page faults were 8 % of the API's time under searches).
import { ensureApiBuilt, API_ENTRY } from './api-build.mjs';
import { ensureWebBuilt } from './web-build.mjs';

if (process.env.API_ONLY !== '1') {
  const status = ensureWebBuilt();
  if (status !== 0) process.exit(status);
}
await ensureApiBuilt();
process.env.NODE_ENV ??= 'production';
await import(API_ENTRY);
