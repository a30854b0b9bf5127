/**
 * gzip of one answer at a time, on the event loop, through one zlib context kept and reset
 * between answers (as RawInflater does for inflate, decision 0030). For answers made for one
 * request (a search for a term, a list): compressing them with brotli (quality 4, on the thread
 * pool) cost ~1.1 ms of CPU for a 40 KB search answer, most of it making the encoder and its
 * buffers for each answer; gzip at level 3 through a kept context costs ~80 µs for ~17 % more
 * bytes (decision 0036).
 *
 * Node has no public reusable sync deflate, so this keeps one Gzip stream and drives its handle
 * (`reset` then `writeSync`, as `zlib.gzipSync` does inside) into a scratch buffer kept between
 * calls, then copies the result out at its size. Where the handle is not there (another Node),
 * or zlib reports an error, it answers through `zlib.gzipSync`.
 */
import zlib from 'node:zlib';
import type { ZlibInside } from './zlib-inside';

/** The scratch buffer is not kept above this (larger answers get one of their own). */
const SCRATCH_MAX = 1 << 20;

export class ReusedGzip {
  private engine: (zlib.Gzip & ZlibInside) | undefined;
  private scratch: Buffer | undefined;

  constructor(
    readonly level: number,
    /** false: always `zlib.gzipSync` (tests of the fallback). */
    private readonly reuse = true,
  ) {}

  /** `input` as gzip, in a buffer of its own. */
  gzip(input: Buffer): Buffer {
    const engine = this.reuse ? this.engineNow() : undefined;
    const handle = engine?._handle;
    const state = engine?._writeState;
    if (!engine || !handle || !state) return this.fallback(input);
    // zlib's deflateBound (stored blocks at worst) and the gzip wrapper, with room to spare:
    // what is left over after Z_FINISH says the stream ended within it.
    const room = input.length + (input.length >> 12) + (input.length >> 14) + 64;
    const out =
      room > SCRATCH_MAX
        ? Buffer.allocUnsafe(room)
        : this.scratch && this.scratch.length >= room
          ? this.scratch
          : (this.scratch = Buffer.allocUnsafeSlow(Math.max(room, 64 * 1024)));
    try {
      handle.reset();
      handle.writeSync(zlib.constants.Z_FINISH, input, 0, input.length, out, 0, out.length);
    } catch {
      this.engine = undefined;
      return this.fallback(input);
    }
    // state: [room left in the output, input left]. All read, and room left: the stream ended.
    const roomLeft = state[0] ?? 0;
    if (engine.destroyed || state[1] !== 0 || roomLeft === 0) {
      this.engine = undefined;
      return this.fallback(input);
    }
    const size = out.length - roomLeft;
    if (out !== this.scratch) return out.subarray(0, size);
    const own = Buffer.allocUnsafe(size);
    out.copy(own, 0, 0, size);
    return own;
  }

  private engineNow(): (zlib.Gzip & ZlibInside) | undefined {
    if (!this.engine) {
      const engine = zlib.createGzip({ level: this.level }) as zlib.Gzip & ZlibInside;
      // An error destroys the stream, which then emits it: heard here, answered by the fallback.
      engine.on('error', () => {});
      this.engine = engine;
    }
    return this.engine;
  }

  private fallback(input: Buffer): Buffer {
    return zlib.gzipSync(input, { level: this.level });
  }
}
