import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ReusedGzip } from './reused-gzip';

const json = (n: number) =>
  Buffer.from(
    JSON.stringify(
      Array.from({ length: n }, (_, i) => ({
        bountyId: i,
        title: `Golden hour ${i}`,
        votes: i * 7,
      })),
    ),
  );

describe('ReusedGzip', () => {
  it('gives what zlib.gzipSync gives at its level, answer after answer, each in a buffer of its own', () => {
    const gz = new ReusedGzip(3);
    const inputs = [json(400), Buffer.alloc(0), json(1), json(2000), randomBytes(5000), json(400)];
    const outs = inputs.map((input) => gz.gzip(input));
    for (const [i, input] of inputs.entries()) {
      expect(outs[i]!.equals(zlib.gzipSync(input, { level: 3 }))).toBe(true);
      expect(zlib.gunzipSync(outs[i]!).equals(input)).toBe(true);
    }
    // Later answers did not write over earlier ones (each was checked after all were made).
    expect(outs[0]!.equals(outs[5]!)).toBe(true);
  });

  it('compresses an answer larger than its scratch buffer, and bytes that do not compress', () => {
    const gz = new ReusedGzip(3);
    for (const input of [randomBytes(2 * 1024 * 1024), json(60_000), randomBytes(70_000)]) {
      const out = gz.gzip(input);
      expect(zlib.gunzipSync(out).equals(input)).toBe(true);
    }
  });

  it('answers the same through zlib.gzipSync where the context is not reused', () => {
    const input = json(300);
    const out = new ReusedGzip(3, false).gzip(input);
    expect(out.equals(new ReusedGzip(3).gzip(input))).toBe(true);
    expect(zlib.gunzipSync(out).equals(input)).toBe(true);
  });
});
