// `npm start`: builds the web app and the API when their builds are missing or older than their
// sources, then runs the API and the web server in this process (no child process: the API is
// plain JavaScript from apps/api/build, see scripts/api-build.mjs and decision 0018).
// glibc's malloc settings (scripts/glibc-env.mjs, decision 0008) come from the npm script:
// glibc reads them when the process starts.
import { ensureApiBuilt, API_ENTRY } from './api-build.mjs';
import { ensureWebBuilt } from './web-build.mjs';

if (process.env.API_ONLY !== '1') {
  const status = ensureWebBuilt();
  if (status !== 0) process.exit(status);
}
await ensureApiBuilt();
process.env.NODE_ENV ??= 'production';
await import(API_ENTRY);
