/**
 * Bounties as searches show them, deflated: the second tier behind the item cache (decision
 * 0030). The item cache keeps up to 2,048 bounties as their JSON (~2–4 KB each, decisions
 * 0024, 0032); at 100,000 bounties a never-seen term mostly finds bounties it no longer holds,
 * and building one again (a statement for its rounds' claims, their rows, the JSON) costs ~20
 * times what inflating it costs. So every bounty built is also kept here, deflated with a
 * dictionary of the answer's own field names (~650 bytes), within a budget of bytes, the least
 * recently read dropped first. A search inflates each straight into its place in the answer,
 * through one zlib context reset between bounties (`RawInflater`: ~8 µs a bounty of ten claims,
 * where `inflateRawSync` and a copy took ~13).
 *
 * It is dropped exactly as the item cache is: a bounty when its bounty page is (any event of
 * the bounty on any instance), everything on what clears the feed and on a gap in the bus. Its
 * time limit, like PAGE_CACHE_MS, bounds only how long a bounty may lag when a message between
 * instances is lost unnoticed; entries past it are built again (no stale answers here).
 */
import zlib from 'node:zlib';
import { RawInflater } from '../../lib/raw-inflater';
import { spreadTtl } from '../../lib/spread-ttl';

/** V8 heap per entry beyond the deflated bytes (the Buffer, its entry, the map): 278–302 measured. */
export const ENTRY_OVERHEAD = 300;

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
const DEFLATE = { dictionary: DICTIONARY, level: 1 };

/** A bounty as kept: `take` it, then `inflateInto` the answer. */
export interface StoredItem {
  readonly at: number;
  readonly ttl: number;
  readonly bytes: Buffer;
  /** The JSON's length. */
  readonly length: number;
}

/**
 * `bytes` in a buffer of its own: zlib's sync result is a slice of its output chunk, which for
 * chunks under 4 KB is a shared slab (Buffer.allocUnsafe's pool), and kept it would hold it.
 */
function own(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength <= bytes.length + 1) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

export class ItemStore {
  private readonly entries = new Map<number, StoredItem>();
  private readonly inflater: RawInflater;
  private generation = 0;
  private used = 0;

  constructor(
    /** Deflated bytes (plus ENTRY_OVERHEAD each) kept at most; 0 turns the store off. */
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

  /** The bounty as kept, or undefined (past its time: dropped). A hit moves it to the end. */
  take(bountyId: number): StoredItem | undefined {
    const hit = this.entries.get(bountyId);
    if (!hit) return undefined;
    if (this.now() - hit.at >= hit.ttl) {
      this.remove(bountyId, hit);
      return undefined;
    }
    this.entries.delete(bountyId);
    this.entries.set(bountyId, hit);
    return hit;
  }

  /**
   * Inflates what `take` gave into `out` at `offset` (`item.length` bytes, and one spare after
   * them that may be overwritten). False, and the bounty dropped, when its bytes do not inflate.
   */
  inflateInto(bountyId: number, item: StoredItem, out: Buffer, offset: number): boolean {
    if (this.inflater.inflateInto(item.bytes, item.length, out, offset)) return true;
    if (this.entries.get(bountyId) === item) this.remove(bountyId, item);
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
    const old = this.entries.get(bountyId);
    if (old) this.remove(bountyId, old);
    const bytes = own(
      zlib.deflateRawSync(json, { ...DEFLATE, chunkSize: Math.max(64, json.length) }),
    );
    // Kept first for a spread time, so bounties built together are not built again together.
    this.entries.set(bountyId, {
      at: this.now(),
      ttl: spreadTtl(this.ttlMs, this.random),
      bytes,
      length: json.length,
    });
    this.used += bytes.length + ENTRY_OVERHEAD;
    for (const [id, e] of this.entries) {
      if (this.used <= this.budgetBytes) break;
      this.remove(id, e);
    }
  }

  /** After a change to what the bounty shows. */
  delete(bountyId: number): void {
    const e = this.entries.get(bountyId);
    if (e) this.remove(bountyId, e);
  }

  /** After a change every search may show. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.used = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes counted against the budget. */
  get bytes(): number {
    return this.used;
  }

  private remove(bountyId: number, e: StoredItem): void {
    this.entries.delete(bountyId);
    this.used -= e.bytes.length + ENTRY_OVERHEAD;
  }
}
