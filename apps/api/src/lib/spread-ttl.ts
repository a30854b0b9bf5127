/**
 * How long one cache entry is kept: `ttlMs` less up to half of it, at random. Entries read
 * together (a burst of first reads, a bench's warm-up, a deploy) would otherwise expire together
 * and be read again from the database all at once; spread over the last half of the time limit,
 * they come back a few at a time (decision 0025). Never longer than `ttlMs`, so a time limit
 * still bounds what it bounded.
 */
export function spreadTtl(ttlMs: number, random: () => number = Math.random): number {
  return ttlMs * (1 - random() / 2);
}
