/**
 * glibc's malloc settings (decision 0008) reach every way the API is started: `npm start` sets
 * them on its command line (glibc reads them when the process starts, so they cannot come from
 * inside it) and the benchmarks pass them on; both are checked against scripts/glibc-env.mjs.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GLIBC_ENV } from '../../../scripts/glibc-env.mjs';
import { benchServerEnv } from '../bench/server-env';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const startScript = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts.start!;

describe('glibc settings', () => {
  it('npm start gives node scripts/start.mjs each of them, through its own shell', () => {
    expect(startScript).toMatch(/ exec node (\S+ )*scripts\/start\.mjs$/);
    // The script's assignments, run by a shell as npm runs them, up to the command.
    const env = execFileSync(
      'sh',
      ['-c', startScript.replace(/exec node (\S+ )*scripts\/start\.mjs$/, 'exec env')],
      { env: { PATH: process.env.PATH }, encoding: 'utf8' },
    );
    for (const [name, value] of Object.entries(GLIBC_ENV))
      expect(env.split('\n')).toContain(`${name}=${value}`);
    expect(Number(GLIBC_ENV.MALLOC_TRIM_THRESHOLD_)).toBeGreaterThanOrEqual(1 << 20);
  });

  it('the benchmarks start the product with the same settings', () => {
    const env = benchServerEnv({ port: 1, databaseUrl: 'postgres://x', dataDir: '/tmp/x' });
    for (const [name, value] of Object.entries(GLIBC_ENV)) expect(env[name]).toBe(value);
  });
});
