/**
 * The signed-in user's own answer (GET /user) kept by user id for USER_CACHE_MS, so that the
 * call every page of the web app makes costs no database round trip (issue 21, decision 0022).
 * Every write to a user's row or hunter row forgets that user here at once and, through the
 * live bus, on every other instance (UsersService.changed).
 *
 * As with the session cache (decision 0015), a forgotten user's answer is not kept again for
 * HOLD_MS: a read that overlapped the forgetting may hold what is being replaced, and a change
 * made inside a transaction is forgotten before it commits. A read that overlapped `clear` (a
 * gap on the bus) is not kept either: the generation moves with it.
 */

import { claimRefresh, refreshAheadAt, spreadTtl } from '../../lib/spread-ttl';

/** After a user changed, their answers are not kept for this long (as sessions: decision 0015). */
export const HOLD_MS = 2000;

export class UserAnswerCache<V> {
  private readonly entries = new Map<
    number,
    { value: V; until: number; refreshAt: number; refreshing?: boolean }
  >();
  private gen = 0;
  /** Users forgotten lately, and until when (wall-clock ms) none of their answers is kept. */
  private readonly held = new Map<number, number>();

  constructor(
    /** How long an answer is trusted, wall-clock ms; 0 turns the cache off. */
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
    private readonly wallClock: () => number = Date.now,
    /** For spreadTtl: entries read together do not all expire together. */
    private readonly random: () => number = Math.random,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(userId: number): V | undefined {
    const e = this.entries.get(userId);
    if (!e) return undefined;
    // Past its time it stays until `keep` replaces it, so that it is kept again for the whole TTL.
    return this.wallClock() >= e.until ? undefined : e.value;
  }

  /** Read before asking the database; pass it to `keep`. */
  generation(): number {
    return this.gen;
  }

  /** Keeps what the database answered, unless the user is held or all was cleared since. */
  keep(userId: number, value: V, generation: number): void {
    if (this.ttlMs <= 0 || generation !== this.gen) return;
    const until = this.held.get(userId);
    if (until !== undefined) {
      if (this.wallClock() < until) return;
      this.held.delete(userId);
    }
    const again = this.entries.delete(userId);
    if (!again && this.entries.size >= this.maxEntries) {
      // The longest kept goes (Maps iterate in insertion order).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    // Spread when first kept; kept again, the whole TTL, so it keeps its moment (spreadTtl).
    const ttl = again ? this.ttlMs : spreadTtl(this.ttlMs, this.random);
    const now = this.wallClock();
    this.entries.set(userId, { value, until: now + ttl, refreshAt: refreshAheadAt(now, ttl) });
  }

  /**
   * True, once, when the fresh answer of `userId` is near the end of its time: the caller reads
   * it again in the background and `keep`s it (decision 0041).
   */
  refreshDue(userId: number): boolean {
    return claimRefresh(this.entries.get(userId), this.wallClock());
  }

  forget(userIds: Iterable<number>): void {
    if (this.ttlMs <= 0) return;
    const until = this.wallClock() + HOLD_MS;
    if (this.held.size > this.maxEntries) this.dropExpiredHolds();
    for (const id of userIds) {
      this.entries.delete(id);
      this.held.set(id, until);
    }
  }

  clear(): void {
    this.gen += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private dropExpiredHolds(): void {
    const now = this.wallClock();
    for (const [id, until] of this.held) if (until <= now) this.held.delete(id);
  }
}
