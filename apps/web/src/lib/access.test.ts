import type { Hunter } from '@bountyhunt/shared/profiles';
import type { User } from '@bountyhunt/shared/users';
import { describe, expect, it } from 'vitest';
import { joinCase, passesGuard } from './access';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const future = '2026-07-01T00:00:00.000Z';
const past = '2026-05-01T00:00:00.000Z';

function user(over: Partial<User>): User {
  return {
    userId: 1,
    email: 'a@b.co',
    role: 1,
    active: null,
    handle: null,
    firstName: null,
    lastName: null,
    taxAddress: null,
    ssnLastFour: null,
    bankAccountLastFour: null,
    bankInfo: null,
    creditCardLastFour: null,
    silver: 0,
    votes: 0,
    membership: null,
    identityStatus: 'none',
    identityReason: null,
    ...over,
  };
}
const hunter = (handle: string | null): Hunter => ({
  hunterId: 1,
  userId: 1,
  handle,
  stagename: null,
  bio: null,
  banner: null,
  picture: null,
});

describe('role guard (SPEC.md §4)', () => {
  it('refuses anonymous users and users lacking the role mask', () => {
    expect(passesGuard(null, null, { role: 3 }, NOW)).toBe(false);
    expect(passesGuard(user({ role: 1 }), null, { role: 2 }, NOW)).toBe(false);
    expect(passesGuard(user({ role: 2 }), hunter(null), { role: 1 }, NOW)).toBe(false);
    expect(passesGuard(user({ role: 1 }), null, { role: 1 }, NOW)).toBe(true);
    expect(passesGuard(user({ role: 2 }), hunter(null), { role: 3 }, NOW)).toBe(true);
  });

  it('with active: members need a future active date', () => {
    const spec = { role: 3, active: true };
    expect(passesGuard(user({ active: future }), null, spec, NOW)).toBe(true);
    expect(passesGuard(user({ active: past }), null, spec, NOW)).toBe(false);
    expect(passesGuard(user({ active: null }), null, spec, NOW)).toBe(false);
  });

  it('with active: hunters need a handle', () => {
    const spec = { role: 3, active: true };
    expect(passesGuard(user({ role: 2 }), hunter('ace'), spec, NOW)).toBe(true);
    expect(passesGuard(user({ role: 2 }), hunter(null), spec, NOW)).toBe(false);
    expect(passesGuard(user({ role: 2, handle: 'ace' }), null, spec, NOW)).toBe(true);
  });
});

describe('join page cases (SPEC.md §2)', () => {
  it('covers every case', () => {
    expect(joinCase(null, null, NOW)).toBe('anyone');
    expect(joinCase(user({ active: future }), null, NOW)).toBe('member-active');
    expect(joinCase(user({ active: past }), null, NOW)).toBe('member-expired');
    expect(joinCase(user({ active: null }), null, NOW)).toBe('member-unfinished');
    expect(joinCase(user({ role: 2 }), hunter('ace'), NOW)).toBe('creator-done');
    expect(joinCase(user({ role: 2 }), hunter(null), NOW)).toBe('creator-unfinished');
    expect(joinCase(user({ role: 0 }), null, NOW)).toBe('anyone');
  });
});
