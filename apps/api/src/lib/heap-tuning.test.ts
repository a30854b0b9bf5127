import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, tuneHeap } from './heap-tuning';

describe('tuneHeap', () => {
  it('sets the old generation growing factor', () => {
    expect(tuneHeap([])).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
  });

  it('leaves a growing factor given on the command line alone', () => {
    expect(tuneHeap(['--heap-growing-percent=80'])).toEqual([]);
    expect(tuneHeap(['--heap_growing_percent', '80'])).toEqual([]);
  });
});
