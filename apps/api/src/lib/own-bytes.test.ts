import { describe, expect, it } from 'vitest';
import { ownBytes } from './own-bytes';

describe('ownBytes', () => {
  it('is the UTF-8 of the text, in a buffer holding nothing else', () => {
    for (const text of ['', '[]', 'Café — naïve 🌅 "q" \\', 'x'.repeat(5000)]) {
      const bytes = ownBytes(text);
      expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
      expect(bytes.toString('utf8')).toBe(text);
      // Not a slice of a shared slab (what Buffer.from gives short texts).
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.buffer.byteLength).toBe(bytes.length);
    }
    expect(Buffer.from('[]').buffer.byteLength).toBeGreaterThan(2);
  });
});
