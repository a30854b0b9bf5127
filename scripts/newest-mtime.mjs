// The newest modification time under a folder (0 when it is missing): what the build scripts
// compare their output against (scripts/web-build.mjs, scripts/api-build.mjs).
import fs from 'node:fs';
import path from 'node:path';

export function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}
