/**
 * Raw inflate of many small inputs, each straight into a place in a larger buffer, with one zlib
 * context kept and reset between them (decision 0030).
 *
 * `zlib.inflateRawSync` builds a whole stream for every call (the Transform, its handle, the
 * context with its 32 KB window, the dictionary copied in) and returns a buffer of its own,
 * which the caller then copies into the answer: ~12.5 µs for a 4 KB bounty, half of it the
 * set-up. Node has no public reusable sync inflate, so this keeps one InflateRaw stream and
 * drives its handle (`reset` then `writeSync`, as `inflateRawSync` itself does inside): ~6 µs,
 * and nothing allocated. Where the handle is not there (another Node) it falls back to
 * `inflateRawSync` and a copy. After zlib reports an error the stream is destroyed: that call
 * answers false and the next one makes a new stream.
 */
import zlib from 'node:zlib';
import type { ZlibInside } from './zlib-inside';

export class RawInflater {
  private engine: (zlib.InflateRaw & ZlibInside) | undefined;

  constructor(
    private readonly dictionary: Buffer,
    /** false: always the fallback (tests of it). */
    private readonly reuse = true,
  ) {}

  /**
   * Inflates `deflated` (from `inOffset`, `inLength` bytes: by default all of it), which must
   * come to exactly `length` bytes, into `out` at `offset`.
   * `out` must have one byte to spare after them (zlib is given it, to see the end of the
   * stream without asking for more room); it may be overwritten. False when the bytes do not
   * inflate to exactly `length`; `out` is then written in part.
   */
  inflateInto(
    deflated: Buffer,
    length: number,
    out: Buffer,
    offset: number,
    inOffset = 0,
    inLength = deflated.length - inOffset,
  ): boolean {
    if (offset + length + 1 > out.length) throw new RangeError('no room for the inflated bytes');
    if (inOffset < 0 || inLength < 0 || inOffset + inLength > deflated.length)
      throw new RangeError('the deflated bytes are outside their buffer');
    const engine = this.reuse ? this.engineNow() : undefined;
    const handle = engine?._handle;
    const state = engine?._writeState;
    if (!engine || !handle || !state)
      return this.fallback(deflated.subarray(inOffset, inOffset + inLength), length, out, offset);
    try {
      handle.reset();
      handle.writeSync(
        zlib.constants.Z_FINISH,
        deflated,
        inOffset,
        inLength,
        out,
        offset,
        length + 1,
      );
    } catch {
      this.engine = undefined;
      return false;
    }
    if (engine.destroyed) {
      // zlib reported an error: the stream closed its handle; the next call makes another.
      this.engine = undefined;
      return false;
    }
    // state: [room left in the output, input left]. Exactly `length` out, every byte read.
    return state[0] === 1 && state[1] === 0;
  }

  private engineNow(): (zlib.InflateRaw & ZlibInside) | undefined {
    if (!this.engine) {
      const engine = zlib.createInflateRaw({ dictionary: this.dictionary }) as zlib.InflateRaw &
        ZlibInside;
      // An error destroys the stream, which then emits it: heard here, answered by `false`.
      engine.on('error', () => {});
      this.engine = engine;
    }
    return this.engine;
  }

  private fallback(deflated: Buffer, length: number, out: Buffer, offset: number): boolean {
    let json: Buffer;
    try {
      json = zlib.inflateRawSync(deflated, {
        dictionary: this.dictionary,
        chunkSize: Math.max(64, length + 1),
      });
    } catch {
      return false;
    }
    if (json.length !== length) return false;
    json.copy(out, offset);
    return true;
  }
}
