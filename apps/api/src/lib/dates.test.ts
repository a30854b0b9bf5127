import { describe, expect, it } from 'vitest';
import { iso, isoFromUtcText } from './dates';

/** PostgreSQL's text of `ms` (+ `us` microseconds) in a UTC session: no trailing zeros. */
function pgText(ms: number, us = 0): string {
  const d = new Date(ms).toISOString();
  const frac = `${d.slice(20, 23)}${String(us).padStart(3, '0')}`.replace(/0+$/, '');
  return `${d.slice(0, 10)} ${d.slice(11, 19)}${frac ? `.${frac}` : ''}+00`;
}

describe('iso', () => {
  it('reads PostgreSQL UTC text as new Date(text) does, by slicing (milliseconds truncated)', () => {
    const cases = [
      '2026-11-27 02:29:47+00',
      '2026-11-27 02:29:47.5+00',
      '2026-11-27 02:29:47.06+00',
      '2026-11-27 02:29:47.606+00',
      '2026-11-27 02:29:47.6069+00',
      '2026-11-27 02:29:47.999999+00',
      '2000-02-29 23:59:59.000001+00',
      '1970-01-01 00:00:00+00',
    ];
    let seed = 7;
    const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 2000; i++)
      cases.push(pgText(Math.floor(rand() * 4e12), Math.floor(rand() * 1000)));
    for (const text of cases) {
      expect(isoFromUtcText(text)).toBe(new Date(text).toISOString());
      expect(iso(text)).toBe(new Date(text).toISOString());
    }
    expect(iso('2026-11-27 02:29:47.5+00')).toBe('2026-11-27T02:29:47.500Z');
  });

  it('leaves other offsets, forms and Dates to Date', () => {
    for (const text of [
      '2026-11-27 03:29:47.5+01',
      '2026-11-27 02:29:47.5+00:30',
      '2026-11-27 02:29:47.5-00',
      '2026-11-27T02:29:47.500Z',
      '12026-11-27 02:29:47+00',
    ]) {
      expect(isoFromUtcText(text)).toBeUndefined();
      if (!Number.isNaN(new Date(text).getTime()))
        expect(iso(text)).toBe(new Date(text).toISOString());
    }
    expect(iso(new Date(Date.UTC(2026, 10, 27, 1, 2, 3, 4)))).toBe('2026-11-27T01:02:03.004Z');
  });
});
