/**
 * Sessions seen lately, by token hash, so that a signed-in request does not look its session
 * up again within SESSION_CACHE_MS (issue 21: the lookup was a second round trip on every
 * signed-in read). Every change a session can go through (sign-out, other sessions ended,
 * second factor, suspension, a role added) forgets the user's entries here at once and on
 * every other instance through the live bus; docs/decisions/0015-session-cache.md says what
 * is left to the time limit.
 *
 * A lookup that overlapped a forgetting is not kept: the generation counter moves with each,
 * and `keep` only stores what was read while it stood still. A change made inside a
 * transaction is forgotten before it commits, so the user's sessions are not kept again for
 * HOLD_MS afterwards (a lookup meanwhile may still read what is about to change).
 */
import type { Actor } from '../../context';
import { claimRefresh, refreshAheadAt, spreadTtl } from '../../lib/spread-ttl';

export interface CachedSession {
  actor: Actor;
  /** The session's expiry and last use, in the service clock's ms. */
  expiresAt: number;
  lastUsedAt: number;
}

/** After a user's sessions changed, lookups of that user are not kept for this long. */
export const HOLD_MS = 2000;

/** What changed: one session of the user, or all of them but `keepSessionId`. */
export interface Forget {
  userId: number;
  sessionId?: number;
  keepSessionId?: number;
}

interface Entry extends CachedSession {
  /** Wall-clock ms until which it is trusted (read + spreadTtl). */
  until: number;
  /** From when (wall-clock ms) a use reads it again in the background (refreshAheadAt). */
  refreshAt: number;
  refreshing?: boolean;
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private gen = 0;
  /** Users whose sessions changed lately, and until when (wall-clock ms) none is kept. */
  private readonly held = new Map<number, number>();

  constructor(
    /** How long an entry is trusted, wall-clock ms; 0 turns the cache off. */
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
    private readonly wallClock: () => number = Date.now,
    /** For spreadTtl: sessions read together do not all expire together. */
    private readonly random: () => number = Math.random,
  ) {}

  /** The entry for `hash` when it is fresh and its session has not expired at `nowMs`. */
  get(hash: string, nowMs: number): CachedSession | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (nowMs >= e.expiresAt) {
      this.entries.delete(hash);
      return undefined;
    }
    // Past its time it stays until `keep` replaces it, so that it is kept again for the whole TTL.
    return this.wallClock() >= e.until ? undefined : e;
  }

  /** Read before asking the database; pass it to `keep`. */
  generation(): number {
    return this.gen;
  }

  /** Keeps what the database answered, unless something was forgotten since `generation`. */
  keep(hash: string, session: CachedSession, generation: number): void {
    if (this.ttlMs <= 0 || generation !== this.gen) return;
    const until = this.held.get(session.actor.userId);
    if (until !== undefined) {
      if (this.wallClock() < until) return;
      this.held.delete(session.actor.userId);
    }
    if (this.entries.size >= this.maxEntries && !this.entries.has(hash)) {
      // The oldest entry goes (Maps iterate in insertion order).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    // Spread when first kept; kept again, the whole TTL, so it keeps its moment (spreadTtl).
    const ttl = this.entries.delete(hash) ? this.ttlMs : spreadTtl(this.ttlMs, this.random);
    const now = this.wallClock();
    this.entries.set(hash, {
      actor: session.actor,
      expiresAt: session.expiresAt,
      lastUsedAt: session.lastUsedAt,
      until: now + ttl,
      refreshAt: refreshAheadAt(now, ttl),
    });
  }

  /**
   * True, once, when the fresh entry for `hash` is near the end of its time: the caller reads the
   * session again in the background and `keep`s it (decision 0041).
   */
  refreshDue(hash: string): boolean {
    return claimRefresh(this.entries.get(hash), this.wallClock());
  }

  /** The session is gone from the database (a background read found none). */
  drop(hash: string): void {
    this.entries.delete(hash);
  }

  /** The session was used: its last use moves (touches are throttled by it). */
  touched(hash: string, lastUsedAt: number, expiresAt: number): void {
    const e = this.entries.get(hash);
    if (e) {
      e.lastUsedAt = lastUsedAt;
      e.expiresAt = expiresAt;
    }
  }

  forget(change: Forget): void {
    this.gen += 1;
    if (this.ttlMs <= 0) return;
    const now = this.wallClock();
    for (const [user, until] of this.held) if (until <= now) this.held.delete(user);
    this.held.set(change.userId, now + HOLD_MS);
    for (const [hash, e] of this.entries) {
      if (e.actor.userId !== change.userId) continue;
      if (change.sessionId !== undefined && e.actor.sessionId !== change.sessionId) continue;
      if (change.keepSessionId !== undefined && e.actor.sessionId === change.keepSessionId)
        continue;
      this.entries.delete(hash);
    }
  }

  clear(): void {
    this.gen += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
