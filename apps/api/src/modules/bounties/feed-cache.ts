/**
 * A micro-cache of feed pages (POST /bounty/search): the home feed is the same page for
 * everyone and a popular term is asked again and again, so each distinct request is built at
 * most once per FEED_CACHE_MS (default 1 s) per API instance; callers that arrive while it is
 * being built wait for that one build. A page still read near the end of its time is built again
 * behind the answers (decision 0041), so its readers do not wait for that build. Pages are kept as the JSON the route sends
 * (and, once asked for, as brotli or gzip of it).
 *
 * Bounties posted, rounds opened or closed and claims posted through this instance clear it at
 * once (the poster sees their bounty); vote counts in the feed may lag by up to the TTL.
 * FEED_CACHE_MS=0 turns it off. See docs/decisions/0007-feed-micro-cache.md.
 *
 * The bounty page keeps its answers in a second one (bounties.service.ts, decision 0016).
 */
import { refreshAheadAt, spreadTtl } from '../../lib/spread-ttl';
import type { CompressedOnce } from '../../plugins/compress';

export interface FeedPage {
  /** The JSON the route sends: text, or its UTF-8 bytes (searches, decision 0029). */
  json: string | Buffer;
  nextCursor: string | null;
  /** The page compressed for browsers, made by the first answer that needs it. */
  compressed?: CompressedOnce;
}

interface Entry<P> {
  at: number;
  /** How long it is fresh: the TTL, spread for stale-while-rebuilding caches (spreadTtl). */
  ttl: number;
  generation: number;
  page: Promise<P>;
  /** Past its time and being built again (stale-while-rebuilding caches). */
  rebuilding?: boolean;
}

/** Builds of pages past their time running at once, per cache (decision 0025). */
export const BACKGROUND_BUILDS = 2;

/**
 * Keys are the request's text for pages, the bounty's id for the feed's items (a number hashes
 * and compares without a string made for each lookup).
 */
export class FeedCache<P = FeedPage, K extends string | number = string> {
  private readonly entries = new Map<K, Entry<P>>();
  private generation = 0;
  /** Background builds running (stale-while-rebuilding caches). */
  private building = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 256,
    private readonly now: () => number = () => performance.now(),
    /**
     * For caches whose pages are dropped when they change (bounty and claim pages, decision
     * 0021), where the time limit only bounds a lost message: a page past its time is still
     * answered, for up to another TTL, while one build replaces it, so pages read all the time
     * do not expire together into a burst of builds. Off for the feed, whose time limit is how
     * long vote counts may lag.
     *
     * Such pages are also first kept for a spread time (spreadTtl), so pages first read together
     * do not expire together (kept again, a page keeps the whole TTL, and so its moment), and at
     * most BACKGROUND_BUILDS of them are built again at a time: the others are answered as kept
     * until a build is free (decision 0025), so rebuilding never crowds out the requests.
     */
    private readonly staleWhileRebuilding = false,
    private readonly random: () => number = Math.random,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The cached page for `key`, or the one `build` makes (at most one build per key at a time). */
  async get(key: K, build: () => Promise<P>): Promise<P> {
    if (!this.enabled) return build();
    const hit = this.peek(key);
    if (hit) {
      this.readAhead(key, build);
      return hit;
    }
    const stale = this.staleWhileRebuilding ? this.stale(key, build) : undefined;
    if (stale) return stale;
    const page = build();
    this.keep(key, page, this.generation);
    return page;
  }

  /**
   * A fresh page near the end of its time (its last fifth, at most 2 s: refreshAheadAt) is built
   * again behind the answer, when a background build is free (decision 0041): readers of a page
   * read all the time never wait on its build, as they did when it ran out each TTL (at
   * 1,000,000 claims the home feed's build made the readers of that moment wait ~30 ms). The new
   * page counts its time from the start of its build, so nothing shown is older than the TTL
   * allows; it is kept only if nothing dropped the old one meanwhile. Stale-while-rebuilding
   * caches answer past their time anyway.
   */
  private readAhead(key: K, build: () => Promise<P>): void {
    if (this.staleWhileRebuilding) return;
    const e = this.entries.get(key);
    if (!e || e.rebuilding || this.now() < refreshAheadAt(e.at, e.ttl)) return;
    this.rebuild([key], async () => {
      const generation = this.generation;
      const startedAt = this.now();
      const page = await build();
      if (this.entries.get(key) === e) this.keep(key, Promise.resolve(page), generation, startedAt);
    });
  }

  /**
   * A page past its time but within another TTL: answered while one build replaces it. The new
   * page is kept only if nothing dropped the old one meanwhile (a change it may not show).
   */
  private stale(key: K, build: () => Promise<P>): Promise<P> | undefined {
    const old = this.staleEntry(key);
    if (!old) return undefined;
    this.rebuild([key], async () => {
      const generation = this.generation;
      const page = await build();
      if (this.entries.get(key) === old) this.keep(key, Promise.resolve(page), generation);
    });
    return old.page;
  }

  /** The entry for `key` when it is past its time but within another TTL. */
  private staleEntry(key: K): Entry<P> | undefined {
    const old = this.entries.get(key);
    if (!old || old.generation !== this.generation) return undefined;
    const age = this.now() - old.at;
    return age >= old.ttl && age < old.ttl + this.ttlMs ? old : undefined;
  }

  /**
   * Builds the pages of `keys` past their time again in the background, when a build is free
   * (at most BACKGROUND_BUILDS at a time) and no build of them runs: `build` keeps what it made
   * (`set`). Pages left out stay answered as kept and are tried again on their next read.
   */
  rebuild(keys: K[], build: (keys: K[]) => Promise<void>): void {
    if (this.building >= BACKGROUND_BUILDS) return;
    const entries = keys
      .map((k) => [k, this.entries.get(k)] as const)
      .filter((e): e is readonly [K, Entry<P>] => !!e[1] && !e[1].rebuilding);
    if (entries.length === 0) return;
    for (const [, e] of entries) e.rebuilding = true;
    this.building += 1;
    build(entries.map(([k]) => k))
      .catch(() => {
        for (const [, e] of entries) e.rebuilding = false;
      })
      .finally(() => {
        this.building -= 1;
      });
  }

  /** The kept page for `key` when it is fresh (a hit moves it to the end), else undefined. */
  peek(key: K): Promise<P> | undefined {
    if (!this.enabled) return undefined;
    const hit = this.entries.get(key);
    if (!hit || hit.generation !== this.generation || this.now() - hit.at >= hit.ttl)
      return undefined;
    // Least recently used goes first when full: a hit moves to the end.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.page;
  }

  /**
   * For pages built outside `get`: the fresh page (a hit moves it to the end, as `peek`) or, in
   * stale-while-rebuilding caches, one past its time but within another TTL, `key` then pushed to
   * `stale` (to answer it while `rebuild` builds it again); one lookup of the key for both.
   * A search looks up each bounty of its page: at 1,000,000 claims most are not kept here, and
   * each lookup that misses costs a walk of the map's buckets (~0.3 µs measured under load).
   */
  peekOrStale(key: K, stale: K[]): Promise<P> | undefined {
    if (!this.enabled) return undefined;
    const hit = this.entries.get(key);
    if (!hit || hit.generation !== this.generation) return undefined;
    const age = this.now() - hit.at;
    if (age < hit.ttl) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.page;
    }
    if (!this.staleWhileRebuilding || age >= hit.ttl + this.ttlMs) return undefined;
    stale.push(key);
    return hit.page;
  }

  /** Read before building pages outside `get`; pass it to `set`. */
  mark(): number {
    return this.generation;
  }

  /** Keeps a page built outside `get`, unless everything was cleared since `mark`. */
  set(key: K, page: P, mark: number): void {
    if (this.enabled && mark === this.generation) this.keep(key, Promise.resolve(page), mark);
  }

  /** `at`: when what the page shows was read (a build's start), if not now. */
  private keep(key: K, page: Promise<P>, generation: number, at = this.now()): void {
    // Spread when first kept; kept again (rebuilt past its time), it keeps the moment it had.
    const spread = this.staleWhileRebuilding && !this.entries.has(key);
    const ttl = spread ? spreadTtl(this.ttlMs, this.random) : this.ttlMs;
    const entry: Entry<P> = { at, ttl, generation, page };
    this.entries.delete(key);
    this.entries.set(key, entry);
    // A failed build is not kept: the next caller tries again.
    page.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
  }

  /** After a change to what one page shows: that page is built anew. */
  delete(key: K): void {
    this.entries.delete(key);
  }

  /** After a change the feed shows: every page is built anew. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
