/**
 * The API's V8 settings (decision 0038): the young generation's size comes from node's command
 * line, which `npm start` and the benchmarks give it (scripts/api-node-flags.mjs). What V8 reads
 * while running (pretenuring, the growing factor) the API sets itself: src/lib/heap-tuning.ts.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_NODE_FLAGS } from '../../../scripts/api-node-flags.mjs';
import { benchNodeFlags } from '../bench/server-env';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const startScript = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts.start!;

/** The size of V8's new space (both semi-spaces, MB) after a burst of short-lived objects. */
function grownNewSpaceMb(flags: readonly string[]): number {
  const script = `
    import v8 from 'node:v8';
    let keep = [];
    for (let i = 0; i < 3e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 20000) keep = []; }
    const ns = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(String(ns.space_size / 1048576));`;
  return Number(
    execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], {
      encoding: 'utf8',
    }),
  );
}

describe("the API's node flags", () => {
  it('npm start runs node scripts/start.mjs with exactly them', () => {
    const m = / exec node ((?:\S+ )*)scripts\/start\.mjs$/.exec(startScript);
    expect(m).not.toBeNull();
    expect(m![1]!.trim().split(/\s+/)).toEqual([...API_NODE_FLAGS]);
  });

  it('the benchmarks start the product with the same', () => {
    expect([...benchNodeFlags]).toEqual([...API_NODE_FLAGS]);
  });

  it('V8 keeps the young generation to 2 × 8 MB with them, where it grows to 2 × 16 MB without', () => {
    expect(API_NODE_FLAGS).toContain('--max-semi-space-size=8');
    expect(grownNewSpaceMb(API_NODE_FLAGS)).toBeLessThanOrEqual(16);
    expect(grownNewSpaceMb([])).toBeGreaterThan(16);
  });
});
