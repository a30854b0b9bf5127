import { describe, expect, it } from 'vitest';
import { HOLD_MS, UserAnswerCache } from './user-answer-cache';

function cacheAt(ttlMs: number, max = 100) {
  const clock = { now: 1_000_000 };
  const cache = new UserAnswerCache<string>(
    ttlMs,
    max,
    () => clock.now,
    () => 0,
  );
  return { cache, clock };
}

describe('UserAnswerCache', () => {
  it('asks once, in the last fifth of its time, for the answer to be read again ahead', () => {
    const { cache, clock } = cacheAt(10_000);
    cache.keep(1, 'a', cache.generation());
    clock.now += 7_999;
    expect(cache.refreshDue(1)).toBe(false);
    clock.now += 1;
    expect(cache.refreshDue(1)).toBe(true);
    // Once: the read is under way.
    expect(cache.refreshDue(1)).toBe(false);
    expect(cache.get(1)).toBe('a');
    // Kept again: a whole new time, and a new read ahead near its end.
    cache.keep(1, 'b', cache.generation());
    clock.now += 7_999;
    expect(cache.get(1)).toBe('b');
    expect(cache.refreshDue(1)).toBe(false);
    clock.now += 1;
    expect(cache.refreshDue(1)).toBe(true);
    // Past its time nothing is read ahead: the next request reads it itself.
    clock.now += 2_000;
    expect(cache.refreshDue(1)).toBe(false);
    expect(cache.refreshDue(2)).toBe(false);
  });

  it('keeps an answer for its time and no longer', () => {
    const { cache, clock } = cacheAt(10_000);
    cache.keep(1, 'a', cache.generation());
    expect(cache.get(1)).toBe('a');
    clock.now += 9_999;
    expect(cache.get(1)).toBe('a');
    clock.now += 1;
    expect(cache.get(1)).toBeUndefined();
  });

  it('keeps nothing when off', () => {
    const { cache } = cacheAt(0);
    cache.keep(1, 'a', cache.generation());
    expect(cache.get(1)).toBeUndefined();
    expect(cache.enabled).toBe(false);
  });

  it('forgets a changed user and keeps none of their answers for HOLD_MS', () => {
    const { cache, clock } = cacheAt(10_000);
    cache.keep(1, 'old', cache.generation());
    cache.keep(2, 'other', cache.generation());
    // A read began before the change (it may hold the row as it was)...
    const readStarted = cache.generation();
    cache.forget([1]);
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(2)).toBe('other');
    // ...and ends after it: not kept, nor is any read until the hold ends.
    cache.keep(1, 'old', readStarted);
    expect(cache.get(1)).toBeUndefined();
    clock.now += HOLD_MS - 1;
    cache.keep(1, 'new', cache.generation());
    expect(cache.get(1)).toBeUndefined();
    clock.now += 1;
    cache.keep(1, 'new', cache.generation());
    expect(cache.get(1)).toBe('new');
  });

  it("another user's change does not stop a read from being kept", () => {
    const { cache } = cacheAt(10_000);
    const readStarted = cache.generation();
    cache.forget([2]);
    cache.keep(1, 'a', readStarted);
    expect(cache.get(1)).toBe('a');
  });

  it('a read that overlapped a clear (a gap on the bus) is not kept', () => {
    const { cache } = cacheAt(10_000);
    cache.keep(1, 'a', cache.generation());
    const readStarted = cache.generation();
    cache.clear();
    expect(cache.size).toBe(0);
    cache.keep(2, 'b', readStarted);
    expect(cache.get(2)).toBeUndefined();
    cache.keep(2, 'b', cache.generation());
    expect(cache.get(2)).toBe('b');
  });

  it('drops the oldest answer when full', () => {
    const { cache } = cacheAt(10_000, 2);
    cache.keep(1, 'a', cache.generation());
    cache.keep(2, 'b', cache.generation());
    cache.keep(3, 'c', cache.generation());
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(2)).toBe('b');
    expect(cache.get(3)).toBe('c');
    expect(cache.size).toBe(2);
  });
});
