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

/**
 * When an entry kept for `ttlMs` is due to be read again ahead of its time (decision 0041): in
 * the last fifth of its time, at most the last 2 s. A request that finds an entry past this
 * point is answered from it and starts the new read in the background, so a user who keeps
 * reading never waits on the database for it; the time limit still bounds what it holds.
 */
export function refreshAheadAt(keptAt: number, ttlMs: number): number {
  return keptAt + ttlMs - Math.min(ttlMs / 5, 2000);
}

/**
 * True once an entry reached `refreshAt` while still fresh (before `until`), and only the first
 * time (it marks the entry); a new entry put in its place by `keep` starts again.
 */
export function claimRefresh(
  e: { refreshAt: number; until: number; refreshing?: boolean } | undefined,
  now: number,
): boolean {
  if (!e || e.refreshing || now < e.refreshAt || now >= e.until) return false;
  e.refreshing = true;
  return true;
}
