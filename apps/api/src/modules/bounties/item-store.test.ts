import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
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
      // Not a view of the ring: what the caller holds stays as it is.
      expect(out.byteOffset).toBe(0);
      expect(out.buffer.byteLength).toBeLessThanOrEqual(out.length + 1);
    });
    const raw = kept.reduce((n, b) => n + b.length, 0);
    expect(store.bytes - 3 * ENTRY_OVERHEAD).toBeLessThan(raw / 3);
    expect(store.get(4)).toBeUndefined();
  });

  for (const reuse of [true, false])
    it(`inflates bounties straight into their places in one buffer (${reuse ? 'one zlib context reset between them' : 'inflateRawSync and a copy'}); bytes that do not inflate are dropped`, () => {
      const store = new ItemStore(1 << 20, 60_000, undefined, undefined, reuse);
      const kept = [item(1), item(2, 0), item(3, 40), item(4)];
      kept.forEach((json, i) => store.set(i + 1, json, store.mark()));
      const total = kept.reduce((n, b) => n + b.length, 0);
      const out = Buffer.alloc(total + 1, 0x2a);
      const sync = vi.spyOn(zlib, 'inflateRawSync');
      let at = 0;
      // Twice over: the context kept is reset between bounties and between answers.
      for (const round of [0, 1]) {
        at = 0;
        kept.forEach((json, i) => {
          const s = store.take(i + 1)!;
          expect(s.length).toBe(json.length);
          expect(store.inflateInto(i + 1, s, out, at), `round ${round}`).toBe(true);
          at += s.length;
        });
        expect(out.subarray(0, total).equals(Buffer.concat(kept))).toBe(true);
      }
      // On this Node the kept context is what inflates; inflateRawSync only when told so.
      expect(sync).toHaveBeenCalledTimes(reuse ? 0 : 2 * kept.length);
      sync.mockRestore();
      // No room for the spare byte: refused before anything is written.
      const s1 = store.take(1)!;
      expect(() => store.inflateInto(1, s1, out, total - s1.length + 1)).toThrow(RangeError);
      // A length that is not the bytes' own, and bytes that are not deflate at all: false, and
      // the bounty is no longer kept.
      expect(store.inflateInto(1, { ...s1, length: s1.length - 1 }, out, 0)).toBe(false);
      const s2 = store.take(2)!;
      expect(store.inflateInto(2, { ...s2, size: 3 }, out, 0)).toBe(false);
      // Both still kept (what failed was not the entry kept); the real entries still inflate.
      expect(store.get(1)?.equals(kept[0]!)).toBe(true);
      expect(store.get(2)?.equals(kept[1]!)).toBe(true);
      // An entry whose own bytes went bad is dropped.
      const s3 = store.take(3)!;
      store.bytesOf(s3).fill(0xff);
      expect(store.inflateInto(3, s3, out, 0)).toBe(false);
      expect(store.take(3)).toBeUndefined();
      expect(store.get(4)?.equals(kept[3]!)).toBe(true);
    });

  it('keeps within its ring, writing over the oldest first; a bounty read near the end lives on', () => {
    const one = new ItemStore(1 << 20, 60_000);
    for (const id of [1, 2, 3, 4, 5]) one.set(id, item(id), one.mark());
    const size = Math.max(...[1, 2, 3, 4, 5].map((id) => one.bytesOf(one.take(id)!).length));
    // Room for four and a half such bounties.
    const ring = Math.floor(size * 4.5);
    const store = new ItemStore(ring, 60_000);
    for (const id of [1, 2, 3, 4]) store.set(id, item(id), store.mark());
    expect(store.size).toBe(4);
    // Bounty 1 is in the last eighth of the ring before it is written over: read, it is written
    // again at the head, and the next bounty written over is 2, never read.
    expect(store.get(1)?.equals(item(1))).toBe(true);
    store.set(5, item(5), store.mark());
    expect(store.get(2)).toBeUndefined();
    for (const id of [1, 3, 4, 5]) expect(store.get(id)?.equals(item(id))).toBe(true);
    expect(store.bytes - store.size * ENTRY_OVERHEAD).toBeLessThanOrEqual(ring);
    // Round and round: what is kept always inflates to what was kept.
    for (let id = 10; id < 60; id++) {
      store.set(id, item(id), store.mark());
      expect(store.get(id)?.equals(item(id))).toBe(true);
      expect(store.size).toBeLessThanOrEqual(5);
    }
    // A bounty too large for the ring is not kept (and no older copy of it answers).
    store.set(
      11,
      Buffer.from(JSON.stringify({ pad: randomBytes(ring).toString('hex') })),
      store.mark(),
    );
    expect(store.get(11)).toBeUndefined();
  });

  it('refuses bytes written over since they were taken, and keeps taken bytes through a clear', () => {
    const one = new ItemStore(1 << 20, 60_000);
    one.set(1, item(1), one.mark());
    const store = new ItemStore(one.bytesOf(one.take(1)!).length * 3, 60_000);
    store.set(1, item(1), store.mark());
    const taken = store.take(1)!;
    const out = Buffer.alloc(taken.length + 1);
    // Cleared (a change every search may show): not answered again, but a search that already
    // took it still has its bytes.
    store.clear();
    expect(store.take(1)).toBeUndefined();
    expect(store.inflateInto(1, taken, out, 0)).toBe(true);
    expect(out.subarray(0, taken.length).equals(item(1))).toBe(true);
    // Written over by later bounties: refused (never another bounty's bytes).
    for (const id of [2, 3, 4, 5]) store.set(id, item(id), store.mark());
    expect(store.inflateInto(1, taken, out, 0)).toBe(false);
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
