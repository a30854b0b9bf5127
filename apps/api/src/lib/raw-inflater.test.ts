import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { RawInflater } from './raw-inflater';

const dictionary = Buffer.from('{"name":"","count":}');
const json = (i: number) => Buffer.from(JSON.stringify({ name: `item ${i}`, count: i * 7 }));

describe('RawInflater', () => {
  for (const reuse of [true, false])
    it(`inflates bytes from inside a larger buffer, by offset and length (${reuse ? 'kept context' : 'inflateRawSync'})`, () => {
      const inflater = new RawInflater(dictionary, reuse);
      const parts = [1, 22, 333].map((i) => zlib.deflateRawSync(json(i), { dictionary }));
      // Packed one after another, as a ring holds them, with a byte of noise between them.
      const packed = Buffer.concat(parts.flatMap((p) => [p, Buffer.from([0xff])]));
      let at = 0;
      [1, 22, 333].forEach((i, k) => {
        const want = json(i);
        const out = Buffer.alloc(want.length + 1);
        expect(inflater.inflateInto(packed, want.length, out, 0, at, parts[k]!.length)).toBe(true);
        expect(out.subarray(0, want.length).equals(want)).toBe(true);
        at += parts[k]!.length + 1;
      });
      // Cut short: refused, not read past the range given.
      const out = Buffer.alloc(json(1).length + 1);
      expect(inflater.inflateInto(packed, json(1).length, out, 0, 0, parts[0]!.length - 2)).toBe(
        false,
      );
      // A range outside the buffer: refused before anything is read.
      expect(() => inflater.inflateInto(packed, 4, out, 0, packed.length - 1, 5)).toThrow(
        RangeError,
      );
    });
});
