/**
 * V8 heap settings the API applies to itself at start-up, so they hold however the process
 * was started (`npm start`, the benchmark, a bare `node --import tsx apps/api/src/server.ts`)
 * — docs/decisions/0008-api-memory.md and 0038.
 *
 * Only settings V8 reads while running can be changed here: the growing factor of the old
 * generation is read at every full collection, and whether to pretenure at every scavenge.
 * Sizes fixed when the heap is created, such as `--max-semi-space-size`, come from the command
 * line (scripts/api-node-flags.mjs).
 */
import v8 from 'node:v8';

/**
 * After each full collection the old generation may grow by this percentage of what survived
 * before the next one starts. V8's default on a machine with a large heap limit is up to
 * 300 %: under load the old generation filled with promoted garbage of finished requests and
 * the process peaked 80–130 MB above its live data. 50 % keeps that under about 30 MB for
 * roughly 1 % more main-thread time in full collections (measured on the feed, 50 connections).
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * V8's allocation-site pretenuring, off (decision 0038). Under load it decided that the
 * objects of a request (header strings, parsed headers, replies) outlive a scavenge, and
 * allocated them straight in the old generation, where they died: a full collection every
 * ~0.5 s under GET /user, scavenges of 3–6 ms. Off, every object starts young and is promoted
 * only when it has survived: ~5 full collections in 20 s, scavenges of ~1.5 ms.
 */
export const NO_PRETENURING = '--no-allocation-site-pretenuring';

const GROWING_FLAG = /^--heap[-_]growing[-_]percent(=|$)/;
const PRETENURING_FLAG = /^--(no-)?allocation[-_]site[-_]pretenuring$/;

/**
 * Applies the settings unless the command line sets them itself (an operator's choice wins).
 * Returns the flags applied.
 */
export function tuneHeap(execArgv: readonly string[] = process.execArgv): string[] {
  const flags: string[] = [];
  if (!execArgv.some((arg) => GROWING_FLAG.test(arg)))
    flags.push(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  if (!execArgv.some((arg) => PRETENURING_FLAG.test(arg))) flags.push(NO_PRETENURING);
  for (const flag of flags) v8.setFlagsFromString(flag);
  return flags;
}
