/**
 * Bounties as searches show them, deflated: the second tier behind the item cache (decision
 * 0030). The item cache keeps up to 2,048 bounties as their JSON (~2–4 KB each, decisions
 * 0024, 0032); at 100,000 bounties a never-seen term mostly finds bounties it no longer holds,
 * and building one again (a statement for its rounds' claims, their rows, the JSON) costs ~20
 * times what inflating it costs. So every bounty built is also kept here, deflated with a
 * dictionary of the answer's own field names and fixed codes (~900 bytes with ten claims).
 *
 * The bytes are written one after another into one ring of ITEM_STORE_MB (decision 0034): a
 * write covers the oldest bytes, and the bounties whose bytes it covers are dropped; a bounty
 * read while in the last eighth of the ring before it is covered is written again at the head,
 * so the bounties searches still show outlive those they no longer do. Each bounty costs one
 * small entry besides its bytes, where a buffer of its own cost ~300 bytes of heap and, through
 * the allocator, ~2 KB of RSS. A search inflates each straight from the ring into its place in
 * the answer, through one zlib context reset between bounties (`RawInflater`: ~3 µs a bounty of
 * ten claims); bytes the ring wrote over since the search took them are refused, never read.
 *
 * It is dropped exactly as the item cache is: a bounty when its bounty page is (any event of
 * the bounty on any instance), everything on what clears the feed and on a gap in the bus. Its
 * time limit, like PAGE_CACHE_MS, bounds only how long a bounty may lag when a message between
 * instances is lost unnoticed; entries past it are built again (no stale answers here).
 */
import zlib from 'node:zlib';
import { RawInflater } from '../../lib/raw-inflater';
import { spreadTtl } from '../../lib/spread-ttl';

/**
 * V8 heap per bounty beside its bytes in the ring (its entry object and its place in the map and
 * in the queue of writes): 59 measured.
 */
export const ENTRY_OVERHEAD = 64;

const claim =
  '{"claimId":,"bountyId":,"bounty":{"bountyId":,"title":""},"roundId":1,"round":{"roundId":1,' +
  '"endDate":".000Z"},"hunter":{"hunterId":,"handle":"","stagename":"","picture":"-1200x900"},' +
  '"media":"-900x1200","votes":0,"created":".000Z"},';
/**
 * What deflate may refer back to before the first byte of an item: the shape of a bounty with
 * its rounds and claims (CONTRACT.md's Bounty), so even the first claim costs little.
 */
const DICTIONARY = Buffer.from(
  '{"bountyId":,"id":,"title":"","amount":,"mediaType":1,"userId":,"created":".000Z",' +
    '"roundCount":1,"status":"open","winnerClaimId":null,"rounds":[{"roundId":1,"endDate":"' +
    '.000Z","claims":[' +
    claim +
    claim,
);
/**
 * Fixed Huffman codes (Z_FIXED): inflating needs no code tables built for each bounty, ~2.9 µs
 * against ~4.9 for the same bounties deflated with codes of their own, for ~30 % more bytes
 * (~900 against ~690 for ten claims); the ring (below) keeps them at about what a bounty in a
 * buffer of its own cost before.
 */
const DEFLATE = { dictionary: DICTIONARY, level: 1, strategy: zlib.constants.Z_FIXED };

/** A bounty as kept: `take` it, then `inflateInto` the answer. */
export interface StoredItem {
  readonly id: number;
  /** Where its bytes begin, counted over every byte the ring was written (not wrapped). */
  readonly pos: number;
  /** Its deflated bytes. */
  readonly size: number;
  /** The JSON's length. */
  readonly length: number;
  readonly at: number;
  readonly ttl: number;
}

/** Taken when older than this share of the ring: written again at its head (a second chance). */
const SECOND_CHANCE = 7 / 8;

export class ItemStore {
  private readonly entries = new Map<number, StoredItem>();
  /** Every entry written, in the order of their places in the ring (some since dropped). */
  private queue: StoredItem[] = [];
  private queueStart = 0;
  private ring: Buffer | undefined;
  /** Bytes written to the ring since it was made: the place of the next write. */
  private head = 0;
  private readonly inflater: RawInflater;
  private generation = 0;
  private used = 0;

  constructor(
    /** The ring's bytes (each bounty's ENTRY_OVERHEAD of heap comes besides); 0 turns the store off. */
    private readonly budgetBytes: number,
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly random: () => number = Math.random,
    /** false: inflate through `inflateRawSync` (tests of the fallback). */
    reuseInflater = true,
  ) {
    this.inflater = new RawInflater(DICTIONARY, reuseInflater);
  }

  get enabled(): boolean {
    return this.budgetBytes > 0 && this.ttlMs > 0;
  }

  /**
   * The bounty as kept, or undefined (past its time: dropped). One near the end of the ring is
   * written again at its head, so bounties still read outlive those nobody reads.
   */
  take(bountyId: number): StoredItem | undefined {
    const hit = this.entries.get(bountyId);
    if (!hit) return undefined;
    if (this.now() - hit.at >= hit.ttl) {
      this.remove(hit);
      return undefined;
    }
    if (this.head - hit.pos <= this.budgetBytes * SECOND_CHANCE) return hit;
    // Copied out first: the write may cover its old place.
    return this.write({ ...hit }, Buffer.from(this.bytesOf(hit)));
  }

  /**
   * Inflates what `take` gave into `out` at `offset` (`item.length` bytes, and one spare after
   * them that may be overwritten). False, and the bounty dropped, when its bytes do not inflate
   * or were written over since.
   */
  inflateInto(bountyId: number, item: StoredItem, out: Buffer, offset: number): boolean {
    const ring = this.ring;
    if (
      ring &&
      this.intact(item) &&
      this.inflater.inflateInto(ring, item.length, out, offset, this.offsetOf(item), item.size)
    )
      return true;
    if (this.entries.get(bountyId) === item) this.remove(item);
    return false;
  }

  /** The bounty's JSON as it was kept, in a buffer of its own, or undefined (tests, tools). */
  get(bountyId: number): Buffer | undefined {
    const item = this.take(bountyId);
    if (!item) return undefined;
    const out = Buffer.allocUnsafeSlow(item.length + 1);
    return this.inflateInto(bountyId, item, out, 0) ? out.subarray(0, item.length) : undefined;
  }

  /** Read before building items; pass it to `set`. */
  mark(): number {
    return this.generation;
  }

  /** Keeps a bounty's JSON, unless everything was cleared since `mark`. */
  set(bountyId: number, json: Buffer, mark: number): void {
    if (!this.enabled || mark !== this.generation) return;
    const bytes = zlib.deflateRawSync(json, { ...DEFLATE, chunkSize: Math.max(64, json.length) });
    // Not one that would take half the ring (5 rounds × 50 claims deflate to ~15 KB).
    if (bytes.length > this.budgetBytes / 2) {
      this.delete(bountyId);
      return;
    }
    // Kept first for a spread time, so bounties built together are not built again together.
    this.write(
      {
        id: bountyId,
        pos: 0,
        size: bytes.length,
        length: json.length,
        at: this.now(),
        ttl: spreadTtl(this.ttlMs, this.random),
      },
      bytes,
    );
  }

  /** After a change to what the bounty shows. */
  delete(bountyId: number): void {
    const e = this.entries.get(bountyId);
    if (e) this.remove(e);
  }

  /** After a change every search may show. Bytes already taken still inflate. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.used = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Deflated bytes kept, and ENTRY_OVERHEAD for each bounty. */
  get bytes(): number {
    return this.used;
  }

  /**
   * Writes `bytes` at the ring's head as `item` (its place set here) and keeps it, in place of
   * any entry of its bounty; what the write covers is dropped first.
   */
  private write(item: Omit<StoredItem, 'pos'> & { pos: number }, bytes: Buffer): StoredItem {
    const size = this.budgetBytes;
    this.ring ??= Buffer.allocUnsafeSlow(size);
    let pos = this.head;
    // Not split over the ring's end: the rest of this lap is left unwritten.
    if ((pos % size) + bytes.length > size) pos += size - (pos % size);
    const end = pos + bytes.length;
    // Every entry that began a whole ring before the write's end is written over (or, past the
    // end of its lap, treated so).
    while (this.queueStart < this.queue.length && this.queue[this.queueStart]!.pos < end - size) {
      const old = this.queue[this.queueStart++]!;
      if (this.entries.get(old.id) === old) this.remove(old);
    }
    if (this.queueStart > 1024 && this.queueStart * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.queueStart);
      this.queueStart = 0;
    }
    bytes.copy(this.ring, pos % size);
    this.head = end;
    item.pos = pos;
    const old = this.entries.get(item.id);
    if (old) this.remove(old);
    this.entries.set(item.id, item);
    this.queue.push(item);
    this.used += item.size + ENTRY_OVERHEAD;
    return item;
  }

  /** Whether no write reached the item's bytes since they were written. */
  private intact(item: StoredItem): boolean {
    return this.head - item.pos <= this.budgetBytes;
  }

  /**
   * The item's deflated bytes: a view of the ring, good only until the ring is written over
   * them (tests, tools).
   */
  bytesOf(item: StoredItem): Buffer {
    const at = this.offsetOf(item);
    return this.ring!.subarray(at, at + item.size);
  }

  /** Where the item's bytes are in the ring. */
  private offsetOf(item: StoredItem): number {
    return item.pos % this.budgetBytes;
  }

  private remove(e: StoredItem): void {
    this.entries.delete(e.id);
    this.used -= e.size + ENTRY_OVERHEAD;
  }
}
