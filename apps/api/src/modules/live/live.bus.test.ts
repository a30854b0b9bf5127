/**
 * What travels on a bus with a size limit (PostgreSQL NOTIFY: 8,000 bytes): stored events as
 * ids when too big, and control messages (not stored) named as lost, so that their handlers
 * trust nothing kept (decision 0044).
 */
import { describe, expect, it } from 'vitest';
import { encode } from './live.bus';

describe('encode', () => {
  const control = (name: string, data: unknown) => ({
    id: 0,
    userId: null,
    topic: `sys:${name}`,
    data,
  });

  it('sends events whole when they fit', () => {
    const events = [control('pages', { bounties: [1, 2] })];
    expect(JSON.parse(encode(events, 7000))).toEqual({ e: events });
  });

  it('too big: stored events go as ids, control messages by name as lost', () => {
    const big = control('users', { ids: Array.from({ length: 2000 }, (_, i) => 100_000 + i) });
    const stored = { id: 41, userId: 3, topic: null, data: { type: 'reset' } };
    const wire = JSON.parse(encode([stored, big, control('users', { ids: [1] })], 7000));
    expect(wire).toEqual({ ids: [41], lost: ['sys:users'] });
    expect(
      JSON.parse(encode([stored, { ...stored, id: 42, data: 'x'.repeat(8000) }], 7000)),
    ).toEqual({ ids: [41, 42] });
  });
});
