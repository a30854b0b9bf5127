/**
 * Bounties, rounds, claims and votes: every business rule of CONTRACT.md "Bounties and
 * rounds" and "Money and tokens" lives here. Money and vote changes are single transactions.
 */
import {
  type Bounty,
  BOUNTY_MSG,
  type bountyCreateSchema,
  type BountySearchInput,
  type Claim,
  type ClaimCreateInput,
  bountyAnswer,
  claimAnswer,
  FEED_CLAIMS_PER_ROUND,
  type roundCreateSchema,
  SEARCH_PAGE,
  type voteSchema,
} from '@bountyhunt/shared/bounties';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import { PAYMENT_MSG } from '@bountyhunt/shared/billing';
import { z } from 'zod';
import type { Actor, ServiceContext } from '../../context';
import { badRequest, conflict, forbidden, notFound, paymentRequired } from '../../errors';
import { decodeCursor, pageLimit, takePage, type PageSize } from '../../lib/paging';
import { getMedia } from '../media/media.service';
import { findHunterByUserId, findUserById, handlesOf, hunterUserId } from '../users/users.read';
import * as repo from './bounties.repository';
import * as claimsRepo from './claims.repository';
import type { RoundClaimView } from './claims.repository';
import {
  bountyRows,
  isSearchRow,
  searchBounties,
  type SearchCursor,
  type SearchHit,
  type SearchRow,
} from './search.repository';
import * as votesRepo from './votes.repository';
import { groupRounds, presentBounty, presentClaim } from './bounties.present';
import type { FeedCache, FeedPage } from './feed-cache';
import type { ItemStore, StoredItem } from './item-store';
import { CompressedOnce } from '../../plugins/compress';
import { ownBytes } from '../../lib/own-bytes';
import { creditSilver, debitSilver } from '../billing/silver.service';
import { recordEarnings, reverseClaimEarnings, silverValueMicros } from '../payouts/ledger.service';
import { isUniqueViolation } from '../../db/errors';
import type { Db, DbOrTx } from '../../db/client';
import type { ReportItemPreview } from '@bountyhunt/shared/moderation';
import { bountyTopic, type LiveService } from '../live/live.service';
import { EVENTS } from '@bountyhunt/shared/live';
import type { Notice, NotificationsService } from '../notifications/notifications.service';
import { ANONYMOUS, seesHiddenOf, type HiddenChange, type Viewer } from '../../lib/visibility';
import { VoteBatcher } from './vote-batcher';

type BountyCreateInput = z.infer<typeof bountyCreateSchema>;
type RoundCreateInput = z.infer<typeof roundCreateSchema>;
type VoteInput = z.infer<typeof voteSchema>;

/** Claims listed per round on the bounty page (ranked; the rest are reachable by claim id). */
export const BOUNTY_PAGE_CLAIMS_PER_ROUND = 500;

/**
 * Search text → a prefix tsquery over the 'simple' configuration ("cat ph" → 'cat:* & ph:*').
 * Only letters and digits pass, so user input never reaches tsquery syntax.
 */
export function toPrefixQuery(term: string): string | null {
  const words = term.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words)].slice(0, 8);
  return unique.length ? unique.map((w) => `${w}:*`).join(' & ') : null;
}

/** A tally carries the round's top claims, and up to this many more that were voted on. */
const TALLY_TOP = 100;
const TALLY_EXTRA = 50;
/** A round's tallies go out at most this often (EVENTS.talliesPerSecond). */
const TALLY_WINDOW_MS = 1000 / EVENTS.talliesPerSecond;
/** Votes arriving within this many ms share one tally query. */
const TALLY_GATHER_MS = 15;

/** The feed's page sizes (limits from the shared search schema). */
const FEED_PAGE: PageSize = { default: SEARCH_PAGE.default, max: SEARCH_PAGE.max };

/** The feed's cursor: created_at key and id of the last bounty, and its rank for term searches. */
const searchCursor = z.object({
  c: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/),
  i: z.number().refine(Number.isSafeInteger),
  r: z.number().optional(),
});

export function decodeSearchCursor(value: string | undefined): SearchCursor | undefined {
  const c = decodeCursor(value, searchCursor, () => badRequest(BOUNTY_MSG.badCursor, 'BAD_CURSOR'));
  return c && { c: c.c, i: c.i, ...(c.r !== undefined ? { r: c.r } : {}) };
}

/** The control message (LiveService.control) that clears every instance's feed and pages (all, or some bounties'). */
const PAGES_CONTROL = 'pages';
/**
 * The control message naming bounties whose votes moved while nobody watched them: no tally
 * went out (decision 0044), so every instance drops their pages on this instead.
 */
const COUNTS_CONTROL = 'counts';
/** Bounties named per "counts" message (a NOTIFY carries at most 8,000 bytes). */
const COUNTS_CHUNK = 500;
/** A bounty first watched gets its tally at once and again this much later (decision 0044). */
const WATCH_RETALLY_MS = 500;
/** More bounties changed at once than this (rounds closed after a stop): everything is dropped. */
const CHANGED_BOUNTIES_MAX = 1000;

/** The bounties a "pages" message names, or null when it drops everything. */
function changedBounties(data: unknown): number[] | null {
  const ids = (data as { bounties?: unknown } | null)?.bounties;
  return Array.isArray(ids) && ids.every((id) => Number.isSafeInteger(id))
    ? (ids as number[])
    : null;
}
const BOUNTY_TOPIC = bountyTopic(0).slice(0, -1);

/** A search's answer is its bounties' kept bytes between these (decision 0029). */
const BRACKET_OPEN = 0x5b;
const COMMA_BYTE = 0x2c;
const BRACKET_CLOSE = 0x5d;

/**
 * A bounty or claim page as sent: JSON (compressed once per encoding) and whether every viewer
 * sees it.
 */
export interface BountyPage {
  compressed: CompressedOnce;
  everyone: boolean;
  /** A claim's page: its bounty, and the count of changes when its build began (below). */
  of?: { bountyId: number; since: number };
}

export class BountiesService {
  constructor(
    private readonly ctx: ServiceContext,
    /** One per running API (composition root), shared by routes and jobs. */
    private readonly feedCache: FeedCache,
    /** Bounty pages, claim pages and searches' bounties as the public sees them; PAGE_CACHE_MS. */
    caches: {
      bounties: FeedCache<BountyPage>;
      claims: FeedCache<BountyPage>;
      /** Bounties as searches show them, as JSON (decision 0024). */
      items: FeedCache<Buffer, number>;
      /** Every bounty built for searches, deflated (decision 0030). */
      itemStore: ItemStore;
    },
    private readonly live: LiveService,
    private readonly notifications: NotificationsService,
  ) {
    this.voteBatcher = new VoteBatcher(ctx.db, ctx.log);
    this.pageCache = caches.bounties;
    this.claimCache = caches.claims;
    this.itemCache = caches.items;
    this.itemStore = caches.itemStore;
    // Every instance drops what another instance changed (decision 0021): a bounty's page on
    // any event of the bounty (a tally after votes, a claim); on a "pages" message, the feed and
    // the bounties it names (posted, a claim, a round opened or closed: decision 0030), or
    // everything when it names none (hides, suspensions, cards); everything when the bus lost
    // messages.
    live.onControl(PAGES_CONTROL, {
      on: (data) => {
        const ids = changedBounties(data);
        if (ids) this.dropBounties(ids);
        else this.clearPages();
      },
      gap: () => this.clearPages(),
    });
    live.onControl(COUNTS_CONTROL, {
      on: (data) => {
        for (const id of changedBounties(data) ?? []) this.bountyChanged(id);
      },
      // Lost (too big for the bus, or the bus lost messages): everything is built anew.
      gap: () => this.clearPages(),
    });
    live.onWatchStart((topics) => {
      const ids = topics.flatMap((t) =>
        t.startsWith(BOUNTY_TOPIC) ? [Number(t.slice(BOUNTY_TOPIC.length))] : [],
      );
      if (ids.length) void this.watchStarted(ids);
    });
    live.onEvents((events) => {
      for (const e of events) {
        const id = e.topic?.startsWith(BOUNTY_TOPIC) ? e.topic.slice(BOUNTY_TOPIC.length) : null;
        if (id) this.bountyChanged(Number(id));
      }
    });
  }

  private readonly pageCache: FeedCache<BountyPage>;
  /** Votes that arrive together go in one statement (decision 0023). */
  readonly voteBatcher: VoteBatcher;
  private readonly claimCache: FeedCache<BountyPage>;
  /** Each bounty as the feed and searches show it, as JSON (decision 0024). */
  private readonly itemCache: FeedCache<Buffer, number>;
  /** Behind it, each bounty built, deflated, dropped exactly when it is (decision 0030). */
  private readonly itemStore: ItemStore;

  /**
   * When each bounty last changed (a vote, a claim), as a count of such changes: a claim's
   * kept page is good while its bounty has not changed since its build began. Forgotten when
   * the pages are cleared.
   */
  private readonly bountyChangedAt = new Map<number, number>();
  private changes = 0;

  /** A bounty's votes or claims changed: its page and its claims' pages are built anew. */
  private bountyChanged(bountyId: number): void {
    this.pageCache.delete(`b:${bountyId}`);
    this.itemCache.delete(bountyId);
    this.itemStore.delete(bountyId);
    if (this.bountyChangedAt.size >= 100_000) this.clearPages();
    this.bountyChangedAt.set(bountyId, ++this.changes);
  }

  /** Rounds whose counts moved since their last tally, by `bountyId:round`, and the claims voted on. */
  private readonly tallyPending = new Map<
    string,
    { bountyId: number; roundNumber: number; claims: Set<number> }
  >();
  /** When each round's last tally went out (a round gets at most `talliesPerSecond`). */
  private readonly tallySent = new Map<string, number>();
  private tallyTimer: NodeJS.Timeout | null = null;

  /**
   * Votes moved a round's counts: watchers of the bounty get its tally, at most a few times a
   * second however many votes arrive. The rounds moved within a few milliseconds go out
   * together: one query for all their tallies and one batch of events (issue 21: a tally per
   * vote cost two more round trips than the vote itself).
   */
  private tallyChanged(bountyId: number, roundNumber: number, claimId?: number): void {
    const key = `${bountyId}:${roundNumber}`;
    let pending = this.tallyPending.get(key);
    if (!pending)
      this.tallyPending.set(key, (pending = { bountyId, roundNumber, claims: new Set() }));
    if (claimId !== undefined && pending.claims.size < TALLY_EXTRA) pending.claims.add(claimId);
    this.scheduleTallies();
  }

  /**
   * Nobody watched these bounties, so votes on them sent no tally: their current rounds get one
   * now, and once more a moment later (votes on another instance that had not yet heard of
   * the new watcher).
   */
  private async watchStarted(ids: number[]): Promise<void> {
    try {
      for (const id of ids) {
        const bounty = await repo.findBounty(this.ctx.db, id);
        if (!bounty || bounty.hiddenAt) continue;
        this.tallyChanged(id, bounty.roundCount);
        setTimeout(() => this.tallyChanged(id, bounty.roundCount), WATCH_RETALLY_MS).unref();
      }
    } catch (err) {
      this.ctx.log.warn({ err: { message: (err as Error).message } }, 'live: watch tally failed');
    }
  }

  private scheduleTallies(): void {
    if (this.tallyTimer || this.tallyPending.size === 0) return;
    const now = Date.now();
    let due = Infinity;
    for (const key of this.tallyPending.keys())
      due = Math.min(due, (this.tallySent.get(key) ?? 0) + TALLY_WINDOW_MS);
    this.tallyTimer = setTimeout(
      () => {
        this.tallyTimer = null;
        void this.sendTallies();
      },
      Math.max(TALLY_GATHER_MS, due - now),
    );
    this.tallyTimer.unref();
  }

  /** Resolves once no tally waits to go out or is on its way (tests; a clean stop). */
  async talliesSettled(): Promise<void> {
    while (this.tallyTimer || this.tallyPending.size || this.tallySending)
      await (this.tallySending ?? new Promise((r) => setTimeout(r, 5)));
  }

  private tallySending: Promise<void> | null = null;

  private sendTallies(): Promise<void> {
    const sending = this.sendTalliesNow().finally(() => {
      if (this.tallySending === sending) this.tallySending = null;
    });
    this.tallySending = sending;
    return sending;
  }

  private async sendTalliesNow(): Promise<void> {
    const now = Date.now();
    for (const [key, at] of this.tallySent)
      if (now - at >= TALLY_WINDOW_MS) this.tallySent.delete(key);
    const due = [...this.tallyPending].filter(([key]) => !this.tallySent.has(key));
    for (const [key] of due) {
      this.tallyPending.delete(key);
      this.tallySent.set(key, now);
    }
    // Tallies only for bounties someone watches; the others' pages are dropped everywhere.
    const ready = due.filter(([, r]) => this.live.isWatched(bountyTopic(r.bountyId)));
    if (ready.length < due.length) {
      const unseen = new Set(due.map(([, r]) => r.bountyId));
      for (const [, r] of ready) unseen.delete(r.bountyId);
      const ids = [...unseen];
      for (let i = 0; i < ids.length; i += COUNTS_CHUNK)
        void this.live.control(COUNTS_CONTROL, { bounties: ids.slice(i, i + COUNTS_CHUNK) });
    }
    try {
      if (ready.length) {
        const rounds = ready.map(([, r]) => r);
        const tallies = await claimsRepo.roundTallies(
          this.ctx.db,
          rounds,
          TALLY_TOP,
          rounds.flatMap((r) => [...r.claims]),
        );
        const rows = rounds.flatMap(({ bountyId, roundNumber }) => {
          const claims = tallies.get(`${bountyId}:${roundNumber}`);
          return claims?.length
            ? [
                {
                  topic: bountyTopic(bountyId),
                  data: { type: 'tally' as const, bountyId, roundId: roundNumber, claims },
                },
              ]
            : [];
        });
        if (rows.length) await this.live.emit(rows);
      }
    } catch (err) {
      this.ctx.log.warn({ err: { message: (err as Error).message } }, 'live: tallies failed');
    } finally {
      this.scheduleTallies();
    }
  }

  private now(): Date {
    return this.ctx.clock.now();
  }

  /** Role 1 with a membership valid now (CONTRACT.md: posting and voting need it). */
  private async requireActiveMember(actor: Actor): Promise<void> {
    const user = await findUserById(this.ctx.db, actor.userId);
    if (
      !user ||
      !hasRole(user.role, ROLE.member) ||
      !user.active ||
      user.active.getTime() <= this.now().getTime()
    )
      throw forbidden(BOUNTY_MSG.membershipNeeded, 'MEMBERSHIP_REQUIRED');
  }

  /** POST /bounty: holds `amount` silver from the poster and opens round 1. */
  async create(actor: Actor, input: BountyCreateInput): Promise<Bounty> {
    await this.requireActiveMember(actor);
    const now = this.now();
    const id = await this.ctx.db.transaction(async (tx) => {
      const bounty = await repo.insertBounty(tx, {
        userId: actor.userId,
        title: input.title,
        amount: input.amount,
        mediaType: input.mediaType,
        createdAt: now,
      });
      await repo.insertRound(tx, {
        bountyId: bounty.id,
        number: 1,
        endDate: new Date(now.getTime() + input.seconds * 1000),
        createdAt: now,
      });
      if (input.amount > 0)
        await debitSilver(tx, actor.userId, input.amount, 'bounty_hold', bounty.id, { at: now });
      return bounty.id;
    });
    if (input.amount > 0) this.usersChanged([actor.userId]);
    this.bountiesChanged([id]);
    return this.get(id, { userId: actor.userId, admin: false });
  }

  /**
   * GET /bounty/{id} as the JSON the route sends. What everyone sees (a bounty with nothing
   * hidden, or any bounty for an anonymous reader) comes from the page cache, built at most
   * once per PAGE_CACHE_MS per instance; changes (a vote, a claim, a round, a hide) rebuild it
   * at once here and, through the live bus, on every instance (decisions 0016, 0021).
   */
  async getPage(id: number, viewer: Viewer = ANONYMOUS): Promise<BountyPage> {
    const anonymous = viewer.userId === 0 && !viewer.admin;
    if (this.pageCache.enabled) {
      try {
        const page = await this.pageCache.get(`b:${id}`, async () => {
          const { bounty, hiddenContent } = await this.read(id, ANONYMOUS);
          const everyone = !hiddenContent;
          return {
            compressed: new CompressedOnce(JSON.stringify(z.encode(bountyAnswer, bounty))),
            everyone,
          };
        });
        if (anonymous || page.everyone) return page;
      } catch (err) {
        // Hidden from the public: its poster and admins still see it (below).
        if (anonymous) throw err;
      }
    }
    const bounty = await this.get(id, viewer);
    return {
      compressed: new CompressedOnce(JSON.stringify(z.encode(bountyAnswer, bounty))),
      everyone: false,
    };
  }

  /**
   * GET /bounty/{id}: the bounty with every round and its ranked claims. A hidden bounty is a
   * 404 but for its poster and admins (marked hidden); hidden claims show only to their hunter
   * and admins.
   */
  async get(id: number, viewer: Viewer = ANONYMOUS): Promise<Bounty> {
    return (await this.read(id, viewer)).bounty;
  }

  /** The bounty as `get` answers it, and whether anything of it is out of the public's view. */
  private async read(
    id: number,
    viewer: Viewer,
  ): Promise<{ bounty: Bounty; hiddenContent: boolean }> {
    const rows = await claimsRepo.bountyPage(this.ctx.db, id, BOUNTY_PAGE_CLAIMS_PER_ROUND, viewer);
    const b = rows[0];
    if (!b || (b.b_hidden_at && !seesHiddenOf(viewer, b.b_user_id)))
      throw notFound(BOUNTY_MSG.bountyNotFound, 'BOUNTY_NOT_FOUND');
    const rounds = groupRounds(
      rows.filter((r): r is RoundClaimView & typeof r => r.r_number !== null),
    );
    const created = b.b_created_at instanceof Date ? b.b_created_at : new Date(b.b_created_at);
    const bounty = presentBounty(
      {
        id: b.b_id,
        user_id: b.b_user_id,
        title: b.b_title,
        amount: b.b_amount,
        media_type: b.b_media_type,
        round_count: b.b_round_count,
        status: b.b_status,
        winner_claim_id: b.b_winner_claim_id,
        created_at: created,
        created_key: created.toISOString(),
        rank: null,
      },
      rounds.get(id) ?? [],
      b.b_hidden_at !== null,
    );
    const hiddenClaims = b.b_hidden_claims === true || b.b_hidden_claims === 't';
    return { bounty, hiddenContent: b.b_hidden_at !== null || hiddenClaims };
  }

  /**
   * POST /bounty/search as the JSON the route sends: one page, and the cursor of the next when
   * there may be more. Each bounty of the page is kept as its JSON (PAGE_CACHE_MS, dropped like
   * its bounty page when it changes; decision 0024), so a search runs its own query and builds
   * only the bounties no search showed lately.
   */
  async search(input: BountySearchInput, retried = false): Promise<FeedPage> {
    const limit = pageLimit(input.limit, FEED_PAGE);
    const tsquery = toPrefixQuery(input.term ?? '');
    const after = decodeSearchCursor(input.cursor);
    const rows = await searchBounties(this.ctx.db, {
      tsquery,
      ...(input.excludeId !== undefined ? { excludeId: input.excludeId } : {}),
      limit: limit + 1,
      ...(after ? { after } : {}),
    });
    const { rows: page, next } = takePage(rows, limit, (last): SearchCursor => ({
      c: last.created_key,
      i: last.id,
      ...(tsquery ? { r: Number(last.rank) } : {}),
    }));
    // Past their time (`again`): answered as kept while a background build makes them again.
    const again: number[] = [];
    const kept = page.map((r) => this.itemCache.peekOrStale(r.id, again));
    if (again.length > 0)
      this.itemCache.rebuild(again, async (keys) => {
        const rows = page.filter((r) => keys.includes(r.id));
        await this.buildItems(await this.rowsOf(rows, this.ctx.db), this.ctx.db);
      });
    // Not held as JSON any more: taken from the store and inflated below straight into the
    // answer (held as JSON again, the bounties that come and go would promote entries that soon
    // die to the old generation, and GC pauses would follow).
    // Answered again (below) without the store: its bytes may have been written over since
    // they were taken (decision 0034), and a build always answers.
    const stored = page.map((r, i) => (kept[i] || retried ? undefined : this.itemStore.take(r.id)));
    const missing = page.filter((_r, i) => !kept[i] && !stored[i]);
    const built =
      missing.length > 0
        ? // This request has begun: its follow-up statements go ahead of the queue (decision 0039).
          await this.buildItems(await this.rowsOf(missing, this.ctx.dbAhead), this.ctx.dbAhead)
        : new Map<number, Buffer>();
    // A bounty hidden since the walk found it has no row to build from: left out of this page
    // (the cursor still follows the walk).
    // Awaited only when some are kept as JSON (at 1,000,000 claims most come from the store).
    const items = kept.some((k) => k !== undefined)
      ? await Promise.all(page.map((r, i) => kept[i] ?? (stored[i] ? undefined : built.get(r.id))))
      : page.map((r, i) => (stored[i] ? undefined : built.get(r.id)));
    const shown = page.filter((_r, i) => items[i] || stored[i]);
    const json =
      shown.length === page.length
        ? this.joinItems(page, items, stored)
        : this.joinItems(
            shown,
            items.filter((_b, i) => items[i] || stored[i]),
            stored.filter((_s, i) => items[i] || stored[i]),
          );
    // Kept bytes written over since they were taken, or that no longer inflate: those bounties
    // are dropped, and the page is answered again with them built.
    if (json === undefined) return this.search(input, true);
    return { json, nextCursor: next };
  }

  /**
   * The answer's array: each bounty's bytes (decision 0029) copied, or inflated from the store,
   * once into a buffer of the answer's size (with a byte to spare for the inflater).
   */
  private joinItems(
    page: SearchHit[],
    items: (Buffer | undefined)[],
    stored: (StoredItem | undefined)[],
  ): Buffer | undefined {
    let size = 1 + Math.max(0, page.length - 1) + 1;
    for (let i = 0; i < page.length; i++) size += items[i]?.length ?? stored[i]!.length;
    const out = Buffer.allocUnsafe(size + 1);
    out[0] = BRACKET_OPEN;
    let at = 1;
    let whole = true;
    for (let i = 0; i < page.length; i++) {
      if (i > 0) out[at++] = COMMA_BYTE;
      const item = items[i];
      if (item) {
        at += item.copy(out, at);
        continue;
      }
      const s = stored[i]!;
      // The spare byte it may write is the next comma's or the bracket's place, written after.
      if (!this.itemStore.inflateInto(page[i]!.id, s, out, at)) whole = false;
      at += s.length;
    }
    out[at++] = BRACKET_CLOSE;
    return whole ? out.subarray(0, at) : undefined;
  }

  /**
   * The bounties' columns for hits of a walk (which carry none), with each hit's rank and key,
   * in the hits' order; a bounty hidden or deleted since the walk is left out. Read through `db`.
   */
  private async rowsOf(hits: SearchHit[], db: Db): Promise<SearchRow[]> {
    if (hits.every(isSearchRow)) return hits;
    const rows = await bountyRows(
      db,
      hits.map((h) => h.id),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return hits.flatMap((h) => {
      const r = byId.get(h.id);
      return r ? [{ ...r, rank: h.rank, created_key: h.created_key }] : [];
    });
  }

  /**
   * The feed's JSON of each bounty of `rows` (one query for their rounds' claims), kept in the
   * item cache unless its bounty changed, or everything was dropped, while it was being built.
   * Read through `db`.
   */
  private async buildItems(rows: SearchRow[], db: Db): Promise<Map<number, Buffer>> {
    const mark = this.itemCache.mark();
    const stored = this.itemStore.mark();
    const since = this.changes;
    const rounds = groupRounds(
      await claimsRepo.roundsWithClaims(
        db,
        rows.map((r) => r.id),
        FEED_CLAIMS_PER_ROUND,
      ),
    );
    const built = new Map<number, Buffer>();
    for (const r of rows) {
      // presentBounty builds the answer field by field in bountyAnswer's order from typed rows,
      // so this is the JSON z.encode(bountyAnswer, …) would give (search.test.ts checks every
      // bounty of its data on both drivers); encoding it again cost ~60 µs a bounty of ten
      // claims, a sixth of a search whose bounties were not kept (decision 0028).
      const json = ownBytes(JSON.stringify(presentBounty(r, rounds.get(r.id) ?? [])));
      built.set(r.id, json);
      if ((this.bountyChangedAt.get(r.id) ?? 0) <= since) {
        this.itemCache.set(r.id, json, mark);
        this.itemStore.set(r.id, json, stored);
      }
    }
    return built;
  }

  /** POST /bounty/search through the feed micro-cache (FEED_CACHE_MS). */
  searchPage(input: BountySearchInput): Promise<FeedPage> {
    const key = JSON.stringify([
      toPrefixQuery(input.term ?? ''),
      pageLimit(input.limit, FEED_PAGE),
      input.cursor ?? null,
      input.excludeId ?? null,
    ]);
    return this.feedCache.get(key, () => this.search(input));
  }

  /**
   * POST /bounty/{id}/round: the poster opens round roundCount+1 once the current one has
   * ended. A decided bounty reopens with the new amount (held like the first).
   */
  async openRound(actor: Actor, bountyId: number, input: RoundCreateInput): Promise<Bounty> {
    const now = this.now();
    await this.ctx.db.transaction(async (tx) => {
      const bounty = await repo.findBounty(tx, bountyId, 'no key update');
      if (!bounty) throw notFound(BOUNTY_MSG.bountyNotFound, 'BOUNTY_NOT_FOUND');
      if (bounty.userId !== actor.userId) throw forbidden(BOUNTY_MSG.notPoster, 'NOT_POSTER');
      const current = await repo.findRound(tx, bountyId, bounty.roundCount);
      if (current?.endDate && current.endDate.getTime() >= now.getTime())
        throw conflict(BOUNTY_MSG.roundStillActive, 'ROUND_ACTIVE');
      const number = bounty.roundCount + 1;
      await repo.insertRound(tx, {
        bountyId,
        number,
        endDate: new Date(now.getTime() + input.seconds * 1000),
        createdAt: now,
      });
      const reopened = bounty.status === 'decided';
      if (input.amount > 0)
        await debitSilver(tx, actor.userId, input.amount, 'bounty_hold', bountyId, { at: now });
      await repo.updateBounty(tx, bountyId, {
        roundCount: number,
        // Undecided: the held amount carries over and grows; decided: a new prize.
        amount: reopened ? input.amount : bounty.amount + input.amount,
        ...(reopened ? { status: 'open', winnerClaimId: null, decidedAt: null } : {}),
      });
    });
    if (input.amount > 0) this.usersChanged([actor.userId]);
    this.bountiesChanged([bountyId]);
    return this.get(bountyId, { userId: actor.userId, admin: false });
  }

  /** POST /claim: a hunter's media into the bounty's current, Active round. */
  async postClaim(actor: Actor, input: ClaimCreateInput): Promise<Claim> {
    if (!hasRole(actor.role, ROLE.hunter))
      throw forbidden(BOUNTY_MSG.hunterNeeded, 'HUNTER_REQUIRED');
    const now = this.now();
    // Read before the transaction: the media module reads through its own connection, which on
    // PGlite (one connection) would wait for this transaction. Checked in the order below.
    const file = await getMedia(this.ctx, input.media);
    const posted = await this.ctx.db.transaction(async (tx) => {
      // Locking the hunter row serialises this hunter's claims (the one-per-round rule).
      const hunter = await findHunterByUserId(tx, actor.userId, 'no key update');
      if (!hunter) throw forbidden(BOUNTY_MSG.hunterNeeded, 'HUNTER_REQUIRED');
      const bounty = await repo.findBounty(tx, input.bountyId);
      if (!bounty || bounty.hiddenAt) throw notFound(BOUNTY_MSG.bountyNotFound, 'BOUNTY_NOT_FOUND');
      if (input.roundId !== bounty.roundCount)
        throw conflict(BOUNTY_MSG.roundNotActive, 'ROUND_NOT_ACTIVE');
      // Shares the round with concurrent votes; the closing job's update waits for it.
      const round = await repo.findRound(tx, bounty.id, input.roundId, 'share');
      if (!round || !isActive(round, now))
        throw conflict(BOUNTY_MSG.roundNotActive, 'ROUND_NOT_ACTIVE');
      if (!file || file.ownerId !== actor.userId || file.visibility !== 'public')
        throw badRequest(BOUNTY_MSG.mediaUnknown, 'MEDIA_UNKNOWN');
      if (file.status === 'failed') throw badRequest(BOUNTY_MSG.mediaFailed, 'MEDIA_FAILED');
      if (
        !input.multiple &&
        (await claimsRepo.hunterHasClaimInRound(tx, hunter.id, bounty.id, input.roundId))
      )
        throw conflict(BOUNTY_MSG.oneClaimPerRound, 'ONE_CLAIM_PER_ROUND');
      const claim = await claimsRepo.insertClaim(tx, {
        bountyId: bounty.id,
        roundNumber: input.roundId,
        hunterId: hunter.id,
        media: input.media,
        createdAt: now,
      });
      const events = await this.live.record(tx, [
        {
          topic: bountyTopic(bounty.id),
          data: { type: 'claim', bountyId: bounty.id, roundId: input.roundId, claimId: claim.id },
        },
      ]);
      return { id: claim.id, events, bounty };
    });
    this.bountiesChanged([posted.bounty.id]);
    await this.live.wake(posted.events);
    this.tallyChanged(posted.bounty.id, input.roundId);
    if (posted.bounty.userId !== actor.userId) {
      const handle = (await handlesOf(this.ctx.db, [actor.userId])).get(actor.userId);
      await this.notifications.notify({
        userId: posted.bounty.userId,
        type: 'claim_new',
        title: `New claim on “${posted.bounty.title}”`,
        body: `${handle ? `@${handle}` : 'A hunter'} claimed your bounty in round ${input.roundId}.`,
        link: `/claim/${posted.id}`,
        linkLabel: 'See the Claim',
      });
    }
    return this.getClaim(posted.id, { userId: actor.userId, admin: false });
  }

  /**
   * GET /claim/{id} as the JSON the route sends. A claim the public may see is the same to
   * everyone: kept for PAGE_CACHE_MS like its bounty's page and built anew, here and on every
   * instance, when a vote or a claim changes that bounty (decision 0021). Others (hidden) are
   * built for their viewer.
   */
  async getClaimPage(id: number, viewer: Viewer = ANONYMOUS): Promise<BountyPage> {
    if (this.claimCache.enabled) {
      const key = `c:${id}`;
      const build = async (): Promise<BountyPage> => {
        const since = this.changes;
        const claim = await this.getClaim(id, ANONYMOUS);
        return {
          compressed: new CompressedOnce(JSON.stringify(z.encode(claimAnswer, claim))),
          everyone: true,
          of: { bountyId: claim.bountyId, since },
        };
      };
      const current = (p: BountyPage) =>
        !p.of || (this.bountyChangedAt.get(p.of.bountyId) ?? 0) <= p.of.since;
      try {
        let page = await this.claimCache.get(key, build);
        if (!current(page)) {
          this.claimCache.delete(key);
          page = await this.claimCache.get(key, build);
        }
        return page;
      } catch (err) {
        // Hidden from the public: its hunter and admins still see it (below).
        if (viewer.userId === 0 && !viewer.admin) throw err;
      }
    }
    const claim = await this.getClaim(id, viewer);
    return {
      compressed: new CompressedOnce(JSON.stringify(z.encode(claimAnswer, claim))),
      everyone: false,
    };
  }

  /** A claim as `viewer` may see it: a hidden claim (or one in a hidden bounty…) is a 404 but for its hunter and admins. */
  async getClaim(id: number, viewer: Viewer = ANONYMOUS): Promise<Claim> {
    const view = await claimsRepo.findClaimView(this.ctx.db, id, viewer);
    if (!view) throw notFound(BOUNTY_MSG.claimNotFound, 'CLAIM_NOT_FOUND');
    return presentClaim(view);
  }

  /**
   * GET /claim/rank/{id}: 1 for most votes in its round, ties to the earlier claim; hidden
   * claims neither count nor answer (404 but for their hunter and admins, like GET /claim).
   */
  async rank(id: number, viewer: Viewer = ANONYMOUS): Promise<number> {
    if (!(await claimsRepo.findClaimView(this.ctx.db, id, viewer)))
      throw notFound(BOUNTY_MSG.claimNotFound, 'CLAIM_NOT_FOUND');
    const rank = await claimsRepo.claimRank(this.ctx.db, id);
    if (rank === undefined) throw notFound(BOUNTY_MSG.claimNotFound, 'CLAIM_NOT_FOUND');
    return rank;
  }

  /** GET /vote/{claimId}: this user's earlier vote, 0 when none. */
  async myVote(actor: Actor, claimId: number): Promise<number> {
    const claim = await claimsRepo.findClaimRow(this.ctx.db, claimId);
    if (!claim) throw notFound(BOUNTY_MSG.claimNotFound, 'CLAIM_NOT_FOUND');
    const vote = await votesRepo.findVote(this.ctx.db, claimId, actor.userId);
    return vote?.value ?? 0;
  }

  /**
   * POST /vote: in one transaction (one statement, see repo.castVote; with the votes that
   * arrived meanwhile, repo.castVotes and decision 0023) the vote is recorded, the voter's
   * silver drops by n and votes rise by n, and the claim's votes rise by n. The hunter's
   * earnings are queued in the same transaction and credited by settleEarnings.
   */
  async vote(
    actor: Actor,
    input: VoteInput,
  ): Promise<{ claimId: number; vote: number; votes: number; silver: number }> {
    const n = input.votes;
    // A rule that failed is named by reading (refusals only); a refusal whose cause has gone
    // by the time it is read (a top-up, a membership renewed) is tried once more.
    for (let attempt = 0; ; attempt++) {
      const now = this.now();
      let done: Awaited<ReturnType<typeof votesRepo.castVote>>;
      try {
        done = await this.voteBatcher.cast({
          claimId: input.claimId,
          userId: actor.userId,
          n,
          now,
        });
      } catch (err) {
        // The unique (claim, user) index decides between duplicate votes racing each other.
        if (isUniqueViolation(err)) throw conflict(BOUNTY_MSG.alreadyVoted, 'ALREADY_VOTED');
        throw err;
      }
      if (done) {
        this.usersChanged([actor.userId]);
        this.bountyChanged(done.bountyId);
        this.tallyChanged(done.bountyId, done.roundNumber, input.claimId);
        return { claimId: input.claimId, vote: n, votes: done.votes, silver: done.silver };
      }
      await this.whyNoVote(actor, input.claimId, n, now);
      if (attempt >= 1) throw conflict(BOUNTY_MSG.roundNotActive, 'ROUND_NOT_ACTIVE');
    }
  }

  /** Throws the error a refused vote deserves, in the order CONTRACT.md lists the rules. */
  private async whyNoVote(actor: Actor, claimId: number, n: number, now: Date): Promise<void> {
    await this.requireActiveMember(actor);
    const claim = await claimsRepo.findClaimRow(this.ctx.db, claimId);
    // A hidden claim takes no votes: to the voter it is gone.
    if (!claim || claim.hiddenAt) throw notFound(BOUNTY_MSG.claimNotFound, 'CLAIM_NOT_FOUND');
    if ((await hunterUserId(this.ctx.db, claim.hunterId)) === actor.userId)
      throw forbidden(BOUNTY_MSG.ownClaim, 'OWN_CLAIM');
    const round = await repo.findRound(this.ctx.db, claim.bountyId, claim.roundNumber);
    if (!round || !isActive(round, now))
      throw conflict(BOUNTY_MSG.roundNotActive, 'ROUND_NOT_ACTIVE');
    if (await votesRepo.findVote(this.ctx.db, claimId, actor.userId))
      throw conflict(BOUNTY_MSG.alreadyVoted, 'ALREADY_VOTED');
    const user = await findUserById(this.ctx.db, actor.userId);
    if (!user || user.silver < n)
      throw paymentRequired(PAYMENT_MSG.notEnoughSilver, 'NOT_ENOUGH_SILVER');
  }

  /** Moderation: hides or shows a bounty in the caller's transaction (then `feedChanged`). */
  setBountyHidden(
    id: number,
    hidden: boolean,
    db: DbOrTx = this.ctx.db,
  ): Promise<HiddenChange | undefined> {
    return repo.setBountyHiddenAt(db, id, hidden ? this.now() : null);
  }

  /** Moderation: hides or shows a claim in the caller's transaction (then `feedChanged`). */
  async setClaimHidden(
    id: number,
    hidden: boolean,
    db: DbOrTx = this.ctx.db,
  ): Promise<HiddenChange | undefined> {
    const now = this.now();
    const change = await claimsRepo.setClaimHiddenAt(db, id, hidden ? now : null);
    // Hiding takes back what the hunter earned on the claim and was not paid (issue 18).
    if (change && hidden && !change.before) await reverseClaimEarnings(db, id, now);
    return change;
  }

  private readonly usersListeners: ((userIds: number[]) => void)[] = [];

  /**
   * `listener` gets the users whose silver this module moved (votes, held and returned
   * prizes), once it has committed: their own answers are read anew (decision 0022).
   */
  onUsersChanged(listener: (userIds: number[]) => void): void {
    this.usersListeners.push(listener);
  }

  private usersChanged(userIds: number[]): void {
    if (userIds.length === 0) return;
    for (const listener of this.usersListeners) listener(userIds);
  }

  /** After a change the feed shows that this module did not make (a hide, a suspension). */
  feedChanged(): void {
    this.pagesChanged();
  }

  /** The feed and the bounty pages are built anew, here and on every instance (what they show changed). */
  private pagesChanged(): void {
    this.clearPages();
    void this.live.control(PAGES_CONTROL, {});
  }

  /**
   * What only these bounties show changed (posted, a claim, a round opened or closed): their
   * pages, their claims' pages and their kept items are built anew, and the feed's pages
   * (which may list them), here and on every instance; other bounties stay kept (decision 0030).
   */
  private bountiesChanged(ids: number[]): void {
    if (ids.length > CHANGED_BOUNTIES_MAX) return this.pagesChanged();
    this.dropBounties(ids);
    void this.live.control(PAGES_CONTROL, { bounties: ids });
  }

  private dropBounties(ids: number[]): void {
    this.feedCache.clear();
    for (const id of ids) this.bountyChanged(id);
  }

  private clearPages(): void {
    this.feedCache.clear();
    this.pageCache.clear();
    this.claimCache.clear();
    this.itemCache.clear();
    this.itemStore.clear();
    this.bountyChangedAt.clear();
  }

  /** Moderation queue previews of bounties: title, poster's handle. */
  async bountyPreviews(ids: number[]): Promise<Map<number, ReportItemPreview>> {
    const rows = await repo.bountyPreviews(this.ctx.db, ids);
    const handles = await handlesOf(
      this.ctx.db,
      rows.map((r) => r.userId),
    );
    return new Map(
      rows.map((r) => [
        r.id,
        {
          title: r.title,
          media: null,
          handle: handles.get(r.userId) ?? null,
          ownerId: r.userId,
          hidden: r.hiddenAt !== null,
        },
      ]),
    );
  }

  /** Moderation queue previews of claims: the bounty's title, the media, the hunter's handle. */
  async claimPreviews(ids: number[]): Promise<Map<number, ReportItemPreview>> {
    const rows = await claimsRepo.claimPreviews(this.ctx.db, ids);
    return new Map(
      rows.map((r) => [
        r.id,
        {
          title: r.title,
          media: r.media,
          handle: r.handle,
          ownerId: r.user_id,
          hidden: r.hidden === true || r.hidden === 't',
        },
      ]),
    );
  }

  /**
   * The earnings job: turns the silver spent on hunters' claims since the last run into money
   * in the payouts ledger (what it is worth on the voter's plan, the creator share to the
   * hunter's pending balance; a claim hidden meanwhile earns its hunter nothing). Batches skip
   * rows another run holds, so two runs never count the same vote twice.
   */
  async settleEarnings(batch = 5000): Promise<{ votes: number; credited: number }> {
    const now = this.now();
    let credited = 0;
    let rows = 0;
    for (;;) {
      const taken = await this.ctx.db.transaction(async (tx) => {
        const pending = await votesRepo.takePendingEarnings(tx, batch);
        await recordEarnings(
          tx,
          pending.map((e) => ({
            hunterUserId: e.user_id,
            source: 'votes' as const,
            claimId: e.claim_id,
            bountyId: null,
            valueMicros: silverValueMicros(e.plan_index, e.amount),
            forfeit: e.hidden,
          })),
          { kind: 'vote_earnings', at: now, share: this.ctx.config.CREATOR_SHARE },
        );
        return pending;
      });
      rows += taken.length;
      credited += taken.reduce((a, e) => a + e.amount, 0);
      if (taken.length === 0 || taken.length < batch / 2) break;
    }
    if (credited > 0) this.ctx.log.info({ claims: rows, silver: credited }, 'earnings settled');
    return { votes: rows, credited };
  }

  /**
   * The round job: closes every round past its end; when it is the bounty's last round the
   * bounty is decided (rank 1 of that round wins the amount; no claim: back to the poster).
   */
  async closeDueRounds(batch = 100): Promise<{ closed: number; decided: number }> {
    const now = this.now();
    let closed = 0;
    let decided = 0;
    const notices: Notice[] = [];
    /** Posters whose held silver came back. */
    const refunded: number[] = [];
    /** Bounties whose rounds closed. */
    const changed = new Set<number>();
    for (;;) {
      const due = await repo.dueRounds(this.ctx.db, now, batch);
      for (const r of due) {
        const result = await this.ctx.db.transaction(async (tx) => {
          // FOR UPDATE: waits for votes holding the round (key share) to commit first.
          const round = await repo.lockRoundById(tx, r.id);
          if (!round || round.closedAt) return null;
          await repo.closeRound(tx, round.id, now);
          changed.add(round.bountyId);
          const bounty = await repo.findBounty(tx, round.bountyId, 'no key update');
          if (bounty)
            notices.push({
              userId: bounty.userId,
              type: 'round_ended',
              title: `Round ${round.number} of “${bounty.title}” ended`,
              body: 'Its votes are final. You can open a further round from the bounty page.',
              link: `/bounty/${bounty.id}`,
              linkLabel: 'See the Bounty',
            });
          if (!bounty || bounty.status !== 'open' || bounty.roundCount !== round.number)
            return 'closed' as const;
          const winner = await claimsRepo.topClaim(tx, bounty.id, round.number);
          const hunter = winner ? await hunterUserId(tx, winner.hunterId) : undefined;
          notices.push({
            userId: bounty.userId,
            type: 'bounty_decided',
            title: `“${bounty.title}” was decided`,
            body:
              winner && hunter !== undefined
                ? `The top claim of round ${round.number} won${bounty.amount > 0 ? ` ${bounty.amount} silver` : ''}.`
                : `No claim came in${bounty.amount > 0 ? '; your silver is back in your balance' : ''}.`,
            link: winner ? `/claim/${winner.id}` : `/bounty/${bounty.id}`,
            linkLabel: winner ? 'See the Winner' : 'See the Bounty',
          });
          if (winner && hunter !== undefined)
            notices.push({
              userId: hunter,
              type: 'claim_won',
              title: `Your claim won “${bounty.title}”`,
              body:
                bounty.amount > 0
                  ? `Congratulations! The prize of ${bounty.amount} silver counts toward your earnings.`
                  : 'Congratulations! Your claim had the most votes.',
              link: `/claim/${winner.id}`,
              linkLabel: 'See Your Claim',
            });
          if (bounty.amount > 0) {
            if (hunter !== undefined) {
              // The prize is the poster's held silver, worth what it cost on the poster's plan.
              const poster = await findUserById(tx, bounty.userId);
              await recordEarnings(
                tx,
                [
                  {
                    hunterUserId: hunter,
                    source: 'prize',
                    claimId: winner!.id,
                    bountyId: bounty.id,
                    valueMicros: silverValueMicros(poster?.membership, bounty.amount),
                  },
                ],
                {
                  kind: 'prize',
                  refType: 'bounty',
                  refId: bounty.id,
                  at: now,
                  share: this.ctx.config.CREATOR_SHARE,
                },
              );
            } else {
              await creditSilver(tx, bounty.userId, bounty.amount, 'bounty_refund', bounty.id, {
                at: now,
              });
              refunded.push(bounty.userId);
            }
          }
          await repo.updateBounty(tx, bounty.id, {
            status: 'decided',
            winnerClaimId: winner?.id ?? null,
            decidedAt: now,
          });
          return 'decided' as const;
        });
        if (result) closed += 1;
        if (result === 'decided') decided += 1;
      }
      if (due.length < batch) break;
    }
    this.usersChanged(refunded);
    await this.notifications.notify(notices);
    if (closed > 0) {
      this.bountiesChanged([...changed]);
      this.ctx.log.info({ closed, decided }, 'rounds closed');
    }
    return { closed, decided };
  }
}

function isActive(round: repo.RoundRow, now: Date): boolean {
  return !round.closedAt && round.endDate !== null && round.endDate.getTime() >= now.getTime();
}
