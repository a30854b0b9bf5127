import { describe, expect, it } from 'vitest';
import {
  endingIn,
  formatCount,
  formatDayTime,
  maskSsn,
  ordinal,
  relativeDate,
  roundStatus,
  ROUND_STATUS,
} from './format';

const now = new Date('2026-11-22T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('relativeDate (SPEC.md §9)', () => {
  it.each([
    [0, '0m'],
    [59 * 60_000, '59m'],
    [60 * 60_000, '1h'],
    [23 * 3600_000, '23h'],
    [24 * 3600_000, '1d'],
    [9 * 86400_000, '9d'],
  ])('%i ms ago → %s', (ms, text) => expect(relativeDate(ago(ms), now)).toBe(text));

  it('uses month and day under a year, a short date beyond', () => {
    const d = ago(40 * 86400_000);
    expect(relativeDate(d, now)).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);
    expect(relativeDate(ago(400 * 86400_000), now)).toMatch(/^\d{1,2}\/\d{1,2}\/\d{2}$/);
  });
});

describe('ordinal', () => {
  it.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [23, '23rd'],
    [101, '101st'],
    [111, '111th'],
    [112, '112th'],
  ])('%i → %s', (n, text) => expect(ordinal(n)).toBe(text));
});

describe('roundStatus (SPEC.md §4)', () => {
  it('derives Unknown, Pending, Active and Inactive', () => {
    expect(roundStatus(null, now)).toBe(ROUND_STATUS.unknown);
    expect(roundStatus({ roundId: null }, now)).toBe(ROUND_STATUS.unknown);
    expect(roundStatus({ roundId: 1, endDate: null }, now)).toBe(ROUND_STATUS.pending);
    expect(roundStatus({ roundId: 1, endDate: now.toISOString() }, now)).toBe(ROUND_STATUS.active);
    expect(roundStatus({ roundId: 1, endDate: ago(1).toISOString() }, now)).toBe(
      ROUND_STATUS.inactive,
    );
  });
});

describe('masks', () => {
  it('shows only the last four', () => {
    expect(maskSsn('6789')).toBe('xxx-xx-6789');
    expect(endingIn('4242')).toBe('Ending in 4242');
    expect(maskSsn(null)).toBeNull();
  });
});

describe('number and date text without Intl', () => {
  it.each([0, 7, 999, 1000, 1234, 12345, 999999, 1000000, 123456789, -4321])(
    'formatCount(%i) reads as en-US does',
    (n) => expect(formatCount(n)).toBe(n.toLocaleString('en-US')),
  );

  it.each([
    '2026-01-10T00:05:00',
    '2026-01-10T11:59:00',
    '2026-01-10T12:00:00',
    '2026-11-03T16:05:00',
  ])('formatDayTime(%s) reads as en-US does', (iso) => {
    const d = new Date(iso);
    const intl = d
      .toLocaleString('en-US', {
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      })
      .replace(/\u202f/g, ' ');
    expect(formatDayTime(d)).toBe(intl);
  });
});
