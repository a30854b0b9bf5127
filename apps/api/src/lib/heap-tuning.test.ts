import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, NO_PRETENURING, tuneHeap } from './heap-tuning';

const GROWING = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;

describe('tuneHeap', () => {
  it('sets the old generation growing factor and turns pretenuring off', () => {
    expect(tuneHeap([])).toEqual([GROWING, NO_PRETENURING]);
  });

  it('leaves a growing factor given on the command line alone', () => {
    expect(tuneHeap(['--heap-growing-percent=80'])).toEqual([NO_PRETENURING]);
    expect(tuneHeap(['--heap_growing_percent', '80'])).toEqual([NO_PRETENURING]);
  });

  it('leaves pretenuring to the command line when it names it', () => {
    expect(tuneHeap(['--allocation-site-pretenuring'])).toEqual([GROWING]);
    expect(tuneHeap(['--no-allocation-site-pretenuring', '--heap-growing-percent=80'])).toEqual([]);
  });

  // v8.setFlagsFromString ignores a flag it does not know, so check that this V8 knows them.
  it('sets flags this V8 knows', () => {
    for (const flag of [GROWING, NO_PRETENURING])
      expect(() =>
        execFileSync(process.execPath, [flag, '-e', '0'], { stdio: 'pipe' }),
      ).not.toThrow();
    expect(() =>
      execFileSync(process.execPath, ['--no-such-v8-flag', '-e', '0'], { stdio: 'pipe' }),
    ).toThrow();
  });
});
