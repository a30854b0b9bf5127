import { describe, expect, it } from 'vitest';
import { roundStatusText } from './round-status';

describe('round status text (SPEC.md §4)', () => {
  const now = new Date('2026-01-10T12:00:00Z');
  it('names the derived status', () => {
    expect(roundStatusText(null, now)).toBe('Unknown');
    expect(roundStatusText({ roundId: 1, endDate: null }, now)).toBe('Pending');
    expect(roundStatusText({ roundId: 1, endDate: '2026-01-10T13:00:00Z' }, now)).toMatch(
      /^Active · ends /,
    );
    expect(roundStatusText({ roundId: 1, endDate: '2026-01-10T11:00:00Z' }, now)).toMatch(
      /^Inactive · ended /,
    );
  });
});
