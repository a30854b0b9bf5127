/**
 * V8 heap settings the API applies to itself at start-up, so they hold however the process
 * was started (`npm start`, the benchmark, a bare `node --import tsx apps/api/src/server.ts`)
 * — docs/decisions/0008-api-memory.md.
 *
 * Only settings V8 reads while running can be changed here: the growing factor of the old
 * generation is read at every full collection. (Sizes fixed when the heap is created, such as
 * `--max-semi-space-size`, would need a command-line flag the benchmark does not pass.)
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

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/**
 * Applies the settings unless the command line sets them itself (an operator's choice wins).
 * Returns the flags applied.
 */
export function tuneHeap(execArgv: readonly string[] = process.execArgv): string[] {
  if (execArgv.some((arg) => FLAG.test(arg))) return [];
  const flags = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`];
  for (const flag of flags) v8.setFlagsFromString(flag);
  return flags;
}
