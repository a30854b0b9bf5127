// Builds the web app (apps/web/dist) when its build is missing or older than its sources.
// Used by `npm start` (scripts/start.mjs) and `npm run cluster` (scripts/cluster.mjs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestMtime } from './newest-mtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST = path.join(root, 'apps/web/dist');

/** True when apps/web/dist/index.html is missing or older than a source of the web app. */
export function webBuildStale() {
  const sources = Math.max(
    newestMtime(path.join(root, 'apps/web/src')),
    newestMtime(path.join(root, 'apps/web/public')),
    newestMtime(path.join(root, 'packages/shared/src')),
    fs.statSync(path.join(root, 'apps/web/index.html')).mtimeMs,
    fs.statSync(path.join(root, 'apps/web/vite.config.ts')).mtimeMs,
  );
  const distIndex = path.join(WEB_DIST, 'index.html');
  const built = fs.existsSync(distIndex) ? fs.statSync(distIndex).mtimeMs : 0;
  return built < sources;
}

/** Builds when stale; returns the exit status of the build (0 when nothing had to be done). */
export function ensureWebBuilt() {
  if (!webBuildStale()) return 0;
  console.log('Building the web app…');
  const res = spawnSync(
    path.join(root, 'node_modules/.bin/vite'),
    ['build', '--logLevel', 'warn'],
    { cwd: path.join(root, 'apps/web'), stdio: 'inherit' },
  );
  return res.status ?? 1;
}
