// Bundles the API (apps/api/src/server.ts and what it imports from this repository) into
// apps/api/build/ with esbuild when the build is missing or older than its sources, so that
// `npm start` runs plain JavaScript: no TypeScript loader (tsx's loader thread and esbuild
// service) in the running product. Packages from node_modules stay imports (not bundled).
// Used by `npm start` (scripts/start.mjs). Decision 0018.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestMtime } from './newest-mtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const API_BUILD = path.join(root, 'apps/api/build');
export const API_ENTRY = path.join(API_BUILD, 'server.mjs');

/** True when apps/api/build/server.mjs is missing or older than a source of the API. */
export function apiBuildStale() {
  const sources = Math.max(
    newestMtime(path.join(root, 'apps/api/src')),
    newestMtime(path.join(root, 'packages/shared/src')),
    fs.statSync(path.join(root, 'apps/api/package.json')).mtimeMs,
    fs.statSync(fileURLToPath(import.meta.url)).mtimeMs,
  );
  const built = fs.existsSync(API_ENTRY) ? fs.statSync(API_ENTRY).mtimeMs : 0;
  return built < sources;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Builds when stale (into a fresh folder, then swapped in). Instances starting together
 * (`npm run cluster`, the e2e runner) build one at a time: the others wait for the lock and then
 * find the build fresh.
 */
export async function ensureApiBuilt() {
  if (!apiBuildStale()) return;
  const lock = `${API_BUILD}.lock`;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx'));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      // A lock older than two minutes belongs to a build that was killed.
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age > 120_000) fs.rmSync(lock, { force: true });
      await sleep(200);
    }
  }
  try {
    if (apiBuildStale()) await buildApi();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

async function buildApi() {
  const { build, stop } = await import('esbuild');
  const tmp = `${API_BUILD}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  try {
    await buildWith(build, tmp);
  } finally {
    // esbuild's service process would otherwise stay beside the API for as long as it runs.
    await stop();
  }
  fs.rmSync(API_BUILD, { recursive: true, force: true });
  fs.renameSync(tmp, API_BUILD);
}

function buildWith(build, tmp) {
  return build({
    entryPoints: { server: path.join(root, 'apps/api/src/server.ts') },
    outdir: tmp,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Modules loaded on first use (lazy imports, the demo seed) stay in chunks of their own.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    plugins: [
      {
        name: 'packages-external',
        setup(b) {
          // Every package but this repository's own (@bountyhunt/shared is TypeScript).
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@bountyhunt/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
}
