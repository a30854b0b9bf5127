import { describe, expect, it } from 'vitest';
import { SessionCache } from '../modules/auth/session-cache';
import { FeedCache } from '../modules/bounties/feed-cache';
import { UserAnswerCache } from '../modules/users/user-answer-cache';
import { spreadTtl } from './spread-ttl';

describe('spreadTtl', () => {
  it('keeps an entry between half the time limit and all of it, never longer', () => {
    expect(spreadTtl(10_000, () => 0)).toBe(10_000);
    expect(spreadTtl(10_000, () => 0.5)).toBe(7_500);
    expect(spreadTtl(10_000, () => 0.999_999)).toBeGreaterThan(5_000);
    for (let i = 0; i < 1000; i++) {
      const t = spreadTtl(10_000);
      expect(t).toBeGreaterThan(5_000);
      expect(t).toBeLessThanOrEqual(10_000);
    }
  });

  it('sessions and user answers read at the same moment expire at different moments', () => {
    const clock = { now: 0 };
    let r = 0;
    const sessions = new SessionCache(
      10_000,
      100,
      () => clock.now,
      () => r,
    );
    const answers = new UserAnswerCache<string>(
      10_000,
      100,
      () => clock.now,
      () => r,
    );
    const actor = { userId: 1, role: 1, sessionId: 1, secondFactor: false };
    for (const [i, x] of [0, 0.5, 1].entries()) {
      r = x;
      sessions.keep(`h${i}`, { actor: { ...actor, userId: i }, expiresAt: 1e12, lastUsedAt: 0 }, 0);
      answers.keep(i, `a${i}`, 0);
    }
    clock.now = 5_000;
    expect([0, 1, 2].map((i) => !!sessions.get(`h${i}`, 0))).toEqual([true, true, false]);
    expect([0, 1, 2].map((i) => answers.get(i))).toEqual(['a0', 'a1', undefined]);
    clock.now = 7_500;
    expect([0, 1].map((i) => !!sessions.get(`h${i}`, 0))).toEqual([true, false]);
    expect([0, 1].map((i) => answers.get(i))).toEqual(['a0', undefined]);
    clock.now = 10_000;
    expect(sessions.get('h0', 0)).toBeUndefined();
    expect(answers.get(0)).toBeUndefined();
  });

  it('an entry read again once past its time keeps the whole limit (and so its moment)', () => {
    const clock = { now: 0 };
    const sessions = new SessionCache(
      10_000,
      100,
      () => clock.now,
      () => 1,
    );
    const answers = new UserAnswerCache<string>(
      10_000,
      100,
      () => clock.now,
      () => 1,
    );
    const pages = new FeedCache<string>(
      10_000,
      100,
      () => clock.now,
      true,
      () => 1,
    );
    const actor = { userId: 1, role: 1, sessionId: 1, secondFactor: false };
    const keepAll = () => {
      sessions.keep('h', { actor, expiresAt: 1e12, lastUsedAt: 0 }, sessions.generation());
      answers.keep(1, 'a', answers.generation());
      pages.set('p', 'x', pages.mark());
    };
    keepAll(); // first kept: half the limit (random 1)
    clock.now = 5_000;
    expect([sessions.get('h', 0), answers.get(1), pages.peek('p')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    keepAll(); // kept again: the whole limit
    clock.now = 14_999;
    expect(sessions.get('h', 0)).toBeDefined();
    expect(answers.get(1)).toBe('a');
    expect(pages.peek('p')).toBeDefined();
    clock.now = 15_000;
    expect([sessions.get('h', 0), answers.get(1), pages.peek('p')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    // Forgotten (a change), it is first kept again: spread.
    answers.forget([1]);
    clock.now = 20_000;
    answers.keep(1, 'b', answers.generation());
    clock.now = 25_000;
    expect(answers.get(1)).toBeUndefined();
  });
});
