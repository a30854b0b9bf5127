/**
 * How long a cache entry is kept the first time: `ttlMs` less up to half of it, at random.
 * Entries read together (a burst of first reads, a bench's warm-up, a deploy) would otherwise
 * expire together and be read again from the database all at once; spread over the last half of
 * the time limit, they come back a few at a time (decision 0025). An entry kept again (read anew
 * once past its time) keeps the whole limit, and so the moment it was given: the caches reload
 * no more often than before. Never longer than `ttlMs`: a time limit still bounds what it did.
 */
export function spreadTtl(ttlMs: number, random: () => number = Math.random): number {
  return ttlMs * (1 - random() / 2);
}
