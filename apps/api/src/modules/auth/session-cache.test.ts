import { describe, expect, it } from 'vitest';
import { HOLD_MS, SessionCache, type CachedSession } from './session-cache';

const session = (userId: number, sessionId: number, expiresAt = 10_000): CachedSession => ({
  actor: { userId, role: 1, sessionId, secondFactor: false },
  expiresAt,
  lastUsedAt: 0,
});

function cacheAt(ttl = 1000) {
  const clock = { now: 0 };
  const cache = new SessionCache(
    ttl,
    3,
    () => clock.now,
    () => 0,
  );
  return { cache, clock };
}

describe('SessionCache', () => {
  it('asks once, near the end of its time, for the session to be read again ahead', () => {
    const { cache, clock } = cacheAt(20_000);
    cache.keep('a', session(1, 11, 100_000), cache.generation());
    // The last fifth of the time, at most 2 s: from 18 s.
    clock.now = 17_999;
    expect(cache.refreshDue('a')).toBe(false);
    clock.now = 18_000;
    expect(cache.refreshDue('a')).toBe(true);
    expect(cache.refreshDue('a')).toBe(false);
    expect(cache.get('a', 18_000)?.actor.sessionId).toBe(11);
    // Kept again at 18 s: trusted until 38 s, read ahead from 36 s.
    cache.keep('a', session(1, 11, 100_000), cache.generation());
    clock.now = 35_999;
    expect(cache.refreshDue('a')).toBe(false);
    clock.now = 36_000;
    expect(cache.refreshDue('a')).toBe(true);
    // A read ahead that found no session drops it.
    cache.drop('a');
    expect(cache.get('a', 36_000)).toBeUndefined();
    expect(cache.refreshDue('a')).toBe(false);
  });

  it('keeps a session for its time limit, and never past the session’s expiry', () => {
    const { cache, clock } = cacheAt(1000);
    cache.keep('a', session(1, 11, 5000), cache.generation());
    expect(cache.get('a', 0)?.actor.sessionId).toBe(11);
    clock.now = 999;
    expect(cache.get('a', 4999)).toBeDefined();
    expect(cache.get('a', 5000)).toBeUndefined();
    cache.keep('a', session(1, 11, 5000), cache.generation());
    clock.now = 2000;
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('keeps nothing when turned off (0)', () => {
    const { cache } = cacheAt(0);
    cache.keep('a', session(1, 11), cache.generation());
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('does not keep a lookup that overlapped a forgetting', () => {
    const { cache } = cacheAt();
    const before = cache.generation();
    cache.forget({ userId: 2 });
    cache.keep('a', session(1, 11), before);
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('forgets one session, all of a user’s, or all but one', () => {
    const { cache } = cacheAt();
    const fill = () => {
      cache.clear();
      for (const [hash, s] of [
        ['a', session(1, 11)],
        ['b', session(1, 12)],
        ['c', session(2, 21)],
      ] as const)
        cache.keep(hash, s, cache.generation());
    };
    const left = () => ['a', 'b', 'c'].filter((h) => cache.get(h, 0));
    fill();
    cache.forget({ userId: 1, sessionId: 12 });
    expect(left()).toEqual(['a', 'c']);
  });

  it('holds a changed user’s sessions out for a while (a change inside a transaction)', () => {
    const { cache, clock } = cacheAt(60_000);
    cache.forget({ userId: 1 });
    cache.keep('a', session(1, 11), cache.generation());
    cache.keep('c', session(2, 21), cache.generation());
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('c', 0)).toBeDefined();
    clock.now = HOLD_MS;
    cache.keep('a', session(1, 11), cache.generation());
    expect(cache.get('a', 0)).toBeDefined();
  });

  it('forgets all of a user’s sessions but the one kept', () => {
    const { cache } = cacheAt();
    cache.keep('a', session(1, 11), cache.generation());
    cache.keep('b', session(1, 12), cache.generation());
    cache.keep('c', session(2, 21), cache.generation());
    // The hold applies to user 1: entries already there are what forget decides on.
    cache.forget({ userId: 1, keepSessionId: 12 });
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('b', 0)).toBeDefined();
    expect(cache.get('c', 0)).toBeDefined();
    cache.forget({ userId: 2 });
    expect(cache.get('c', 0)).toBeUndefined();
  });

  it('drops the oldest entry when full', () => {
    const { cache } = cacheAt();
    for (const [i, h] of ['a', 'b', 'c', 'd'].entries())
      cache.keep(h, session(10 + i, i), cache.generation());
    expect(cache.size).toBe(3);
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('d', 0)).toBeDefined();
  });
});
