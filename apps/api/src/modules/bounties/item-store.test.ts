import { describe, expect, it } from 'vitest';
import { ENTRY_OVERHEAD, ItemStore } from './item-store';

/** A bounty's JSON as searches show it, with `claims` claims (the shape deflate expects). */
function item(id: number, claims = 10): Buffer {
  return Buffer.from(
    JSON.stringify({
      bountyId: id,
      id,
      title: `Lighthouse ${id} at dawn`,
      amount: 10,
      rounds: [
        {
          roundId: 1,
          endDate: '2026-11-28T14:25:32.069Z',
          claims: Array.from({ length: claims }, (_, i) => ({
            claimId: id * 100 + i,
            bountyId: id,
            hunter: { hunterId: i, handle: `h${i}x${id}`, stagename: `Hunter ${i}` },
            media: `i-${(id * 7919 + i).toString(16)}-1200x900`,
            votes: i,
          })),
        },
      ],
    }),
  );
}

describe('ItemStore (decision 0030)', () => {
  it('answers the exact bytes it kept, each in a buffer of its own, in far fewer bytes', () => {
    const store = new ItemStore(1 << 20, 60_000);
    const kept = [item(1), item(2, 0), item(3, 40)];
    kept.forEach((json, i) => store.set(i + 1, json, store.mark()));
    kept.forEach((json, i) => {
      const out = store.get(i + 1)!;
      expect(out.equals(json)).toBe(true);
      // Not a slice of a shared slab or of a larger chunk: kept, it holds only itself.
      expect(out.byteOffset).toBe(0);
      expect(out.buffer.byteLength).toBeLessThanOrEqual(out.length + 1);
    });
    const raw = kept.reduce((n, b) => n + b.length, 0);
    expect(store.bytes - 3 * ENTRY_OVERHEAD).toBeLessThan(raw / 3);
    expect(store.get(4)).toBeUndefined();
  });

  it('keeps within its budget, dropping the bounty read longest ago first', () => {
    const one = new ItemStore(1 << 20, 60_000);
    one.set(1, item(1), one.mark());
    const size = one.bytes;
    // Room for three such bounties.
    const store = new ItemStore(Math.floor(size * 3.5), 60_000);
    for (const id of [1, 2, 3]) store.set(id, item(id), store.mark());
    expect(store.get(1)).toBeDefined(); // read: now the newest
    store.set(4, item(4), store.mark());
    expect(store.size).toBe(3);
    expect(store.get(2)).toBeUndefined();
    for (const id of [1, 3, 4]) expect(store.get(id)?.equals(item(id))).toBe(true);
    expect(store.bytes).toBeLessThanOrEqual(Math.floor(size * 3.5));
  });

  it('drops a bounty on delete, everything on clear, and keeps no build that began before a clear', () => {
    const store = new ItemStore(1 << 20, 60_000);
    store.set(1, item(1), store.mark());
    store.set(2, item(2), store.mark());
    store.delete(1);
    expect(store.get(1)).toBeUndefined();
    expect(store.get(2)).toBeDefined();
    const before = store.mark();
    store.clear();
    expect(store.get(2)).toBeUndefined();
    expect(store.bytes).toBe(0);
    store.set(3, item(3), before);
    expect(store.get(3)).toBeUndefined();
    store.set(3, item(3), store.mark());
    expect(store.get(3)).toBeDefined();
  });

  it('answers a bounty for its time (spread over the last half), then builds it again', () => {
    let now = 0;
    const store = new ItemStore(
      1 << 20,
      1000,
      () => now,
      () => 1,
    );
    store.set(1, item(1), store.mark());
    now = 499;
    expect(store.get(1)).toBeDefined();
    now = 500;
    expect(store.get(1)).toBeUndefined();
    expect(store.size).toBe(0);
    expect(store.bytes).toBe(0);
  });

  it('is off with no budget or no time', () => {
    for (const store of [new ItemStore(0, 60_000), new ItemStore(1 << 20, 0)]) {
      expect(store.enabled).toBe(false);
      store.set(1, item(1), store.mark());
      expect(store.get(1)).toBeUndefined();
    }
  });
});
