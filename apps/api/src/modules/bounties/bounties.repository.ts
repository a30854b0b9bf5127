/**
 * The only code of this feature that touches the database. Reads that shape answers use
 * SQL written for the indexes of db/schema/bounties.ts (see bench/explain-bounties.ts).
 */
import { and, asc, eq, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { preparedQuery, preparedRows, queryRows, type DbOrTx } from '../../db/client';
import { bounties, claims, hunters, media, rounds, users, votes } from '../../db/schema';

const p = (name: string) => sql.placeholder(name);

export type BountyRow = typeof bounties.$inferSelect;
export type RoundRow = typeof rounds.$inferSelect;
export type ClaimRow = typeof claims.$inferSelect;

/** A claim joined with what its answer shows. */
export interface ClaimView {
  id: number;
  bounty_id: number;
  round_number: number;
  media: string;
  votes: number;
  created_at: Date | string;
  title: string;
  end_date: Date | string | null;
  hunter_id: number;
  handle: string | null;
  stagename: string | null;
  picture: string | null;
}

/** A round with one of its claims (or none: claim columns null), from a lateral join. */
export interface RoundClaimView {
  r_bounty_id: number;
  r_number: number;
  r_end_date: Date | string | null;
  id: number | null;
  bounty_id: number | null;
  round_number: number | null;
  media: string | null;
  votes: number | null;
  created_at: Date | string | null;
  title: string | null;
  end_date: Date | string | null;
  hunter_id: number | null;
  handle: string | null;
  stagename: string | null;
  picture: string | null;
}

const CLAIM_COLUMNS = sql`c.id, c.bounty_id, c.round_number, c.media, c.votes, c.created_at,
  b.title, r.end_date, h.id as hunter_id, u.handle, h.stagename, h.picture`;

const CLAIM_JOINS = sql`from claims c
  join bounties b on b.id = c.bounty_id
  join rounds r on r.bounty_id = c.bounty_id and r.number = c.round_number
  join hunters h on h.id = c.hunter_id
  join users u on u.id = h.user_id`;

/**
 * Claims of one round in rank order: most votes first, ties to the earlier claim. "nulls
 * last" matches claims_round_rank_idx (drizzle-kit writes DESC NULLS LAST), so the planner
 * reads the index in order instead of sorting the round.
 */
const RANK_ORDER = sql`c.votes desc nulls last, c.created_at asc, c.id asc`;

export async function insertBounty(
  tx: DbOrTx,
  values: { userId: number; title: string; amount: number; mediaType: number; createdAt: Date },
): Promise<BountyRow> {
  const [row] = await tx.insert(bounties).values(values).returning();
  return row!;
}

export async function insertRound(
  tx: DbOrTx,
  values: { bountyId: number; number: number; endDate: Date; createdAt: Date },
): Promise<RoundRow> {
  const [row] = await tx.insert(rounds).values(values).returning();
  return row!;
}

const bountyByIdStmt = preparedQuery('bounties_by_id', (db) =>
  db
    .select()
    .from(bounties)
    .where(eq(bounties.id, sql.placeholder('id')))
    .limit(1),
);

export function findBounty(
  db: DbOrTx,
  id: number,
  lock?: 'no key update',
): Promise<BountyRow | undefined> {
  if (!lock) return bountyByIdStmt(db, { id }).then((r) => r[0]);
  return db
    .select()
    .from(bounties)
    .where(eq(bounties.id, id))
    .limit(1)
    .for(lock)
    .then((r) => r[0]);
}

export function findRound(
  db: DbOrTx,
  bountyId: number,
  number: number,
  lock?: 'update' | 'share',
): Promise<RoundRow | undefined> {
  const q = db
    .select()
    .from(rounds)
    .where(and(eq(rounds.bountyId, bountyId), eq(rounds.number, number)))
    .limit(1);
  return (lock ? q.for(lock) : q).then((r) => r[0]);
}

export async function updateBounty(
  tx: DbOrTx,
  id: number,
  values: Partial<Omit<BountyRow, 'id' | 'search'>>,
): Promise<BountyRow> {
  const [row] = await tx.update(bounties).set(values).where(eq(bounties.id, id)).returning();
  return row!;
}

export function findClaimRow(db: DbOrTx, id: number): Promise<ClaimRow | undefined> {
  return db
    .select()
    .from(claims)
    .where(eq(claims.id, id))
    .limit(1)
    .then((r) => r[0]);
}

const claimViewStmt = preparedRows<ClaimView>(
  'claims_view',
  sql`select ${CLAIM_COLUMNS} ${CLAIM_JOINS} where c.id = ${sql.placeholder('id')}`,
);

export async function findClaimView(db: DbOrTx, id: number): Promise<ClaimView | undefined> {
  const rows = await claimViewStmt(db, { id });
  return rows[0];
}

export async function insertClaim(
  tx: DbOrTx,
  values: {
    bountyId: number;
    roundNumber: number;
    hunterId: number;
    media: string;
    createdAt: Date;
  },
): Promise<ClaimRow> {
  const [row] = await tx.insert(claims).values(values).returning();
  return row!;
}

export function hunterHasClaimInRound(
  db: DbOrTx,
  hunterId: number,
  bountyId: number,
  roundNumber: number,
): Promise<boolean> {
  return db
    .select({ id: claims.id })
    .from(claims)
    .where(
      and(
        eq(claims.hunterId, hunterId),
        eq(claims.bountyId, bountyId),
        eq(claims.roundNumber, roundNumber),
      ),
    )
    .limit(1)
    .then((r) => r.length > 0);
}

export function findHunterForUser(
  db: DbOrTx,
  userId: number,
  lock?: 'no key update',
): Promise<{ id: number } | undefined> {
  const q = db.select({ id: hunters.id }).from(hunters).where(eq(hunters.userId, userId)).limit(1);
  return (lock ? q.for(lock) : q).then((r) => r[0]);
}

export function findMedia(db: DbOrTx, key: string) {
  return db
    .select({
      key: media.key,
      ownerId: media.ownerId,
      status: media.status,
      visibility: media.visibility,
    })
    .from(media)
    .where(eq(media.key, key))
    .limit(1)
    .then((r) => r[0]);
}

export function findUserBrief(db: DbOrTx, id: number) {
  return db
    .select({ id: users.id, role: users.role, active: users.active, silver: users.silver })
    .from(users)
    .where(eq(users.id, id))
    .limit(1)
    .then((r) => r[0]);
}

const roundsWithClaimsStmt = preparedRows<RoundClaimView>(
  'rounds_with_claims',
  sql`select rr.bounty_id as r_bounty_id, rr.number as r_number, rr.end_date as r_end_date, x.*
    from rounds rr
    left join lateral (
      select ${CLAIM_COLUMNS} ${CLAIM_JOINS}
      where c.bounty_id = rr.bounty_id and c.round_number = rr.number
      order by ${RANK_ORDER}
      limit ${sql.placeholder('perRound')}
    ) x on true
    where rr.bounty_id = any(${sql.placeholder('ids')}::int4[])
    order by rr.bounty_id, rr.number, x.votes desc nulls last, x.created_at asc, x.id asc`,
);

/** Rounds of the given bounties, each with at most `perRound` claims in rank order. */
export async function roundsWithClaims(
  db: DbOrTx,
  bountyIds: number[],
  perRound: number,
): Promise<RoundClaimView[]> {
  if (bountyIds.length === 0) return [];
  return roundsWithClaimsStmt(db, { ids: bountyIds, perRound });
}

/** 1 + the claims of the same round ranked before this one; undefined for an unknown claim. */
export async function claimRank(db: DbOrTx, claimId: number): Promise<number | undefined> {
  const rows = await queryRows<{ rank: number | string }>(
    db,
    sql`select 1 + (
        select count(*) from claims o
        where o.bounty_id = c.bounty_id and o.round_number = c.round_number
          and (o.votes > c.votes
            or (o.votes = c.votes and (o.created_at, o.id) < (c.created_at, c.id)))
      ) as rank
      from claims c where c.id = ${claimId}`,
  );
  return rows[0] ? Number(rows[0].rank) : undefined;
}

/** The round's rank-1 claim, if any. */
export function topClaim(
  db: DbOrTx,
  bountyId: number,
  roundNumber: number,
): Promise<ClaimRow | undefined> {
  return db
    .select()
    .from(claims)
    .where(and(eq(claims.bountyId, bountyId), eq(claims.roundNumber, roundNumber)))
    .orderBy(sql`${claims.votes} desc nulls last`, asc(claims.createdAt), asc(claims.id))
    .limit(1)
    .then((r) => r[0]);
}

export function findVote(db: DbOrTx, claimId: number, userId: number) {
  return db
    .select({ value: votes.value })
    .from(votes)
    .where(and(eq(votes.claimId, claimId), eq(votes.userId, userId)))
    .limit(1)
    .then((r) => r[0]);
}

/**
 * The whole vote in one statement (one round trip, one transaction), when every rule holds:
 * the claim exists, its round is open (key-share locked, so the closing job waits for the
 * vote), the voter is an active member (role 1) who is not the claim's hunter and has `n`
 * silver. Then: the voter's silver -n and votes +n, the vote row, the voter's ledger row,
 * the hunter's pending earnings and the claim's votes +n. Nothing when a rule fails (the
 * caller asks why); a second vote by the same member fails on the unique (claim, user) index.
 */
const castVoteStmt = preparedRows<{ silver: number; votes: number }>(
  'votes_cast',
  sql`with target as (
      select c.id, c.bounty_id, c.round_number, h.user_id as hunter_user
      from claims c join hunters h on h.id = c.hunter_id
      where c.id = ${p('claimId')}::int4
    ), open_round as (
      select r.id from rounds r join target t on r.bounty_id = t.bounty_id and r.number = t.round_number
      where r.closed_at is null and r.end_date >= ${p('now')}::timestamptz
      for key share of r
    ), voter as (
      update users u set silver = u.silver - ${p('n')}::int4, votes = u.votes + ${p('n')}::int4
      from target t, open_round o
      where u.id = ${p('userId')}::int4 and u.silver >= ${p('n')}::int4 and (u.role & 1) <> 0
        and u.active > ${p('now')}::timestamptz and t.hunter_user <> u.id
      returning u.silver, t.hunter_user
    ), vote as (
      insert into votes (claim_id, user_id, value, created_at)
      select ${p('claimId')}::int4, ${p('userId')}::int4, ${p('n')}::int4, ${p('now')}::timestamptz
      from voter
      returning id
    ), ledger as (
      insert into silver_ledger (user_id, delta, balance_after, reason, ref_id, created_at)
      select ${p('userId')}::int4, -${p('n')}::int4, v.silver, 'vote', ${p('claimId')}::int4,
        ${p('now')}::timestamptz
      from voter v
    ), earnings as (
      insert into vote_earnings_pending (user_id, claim_id, amount, created_at)
      select v.hunter_user, ${p('claimId')}::int4, ${p('n')}::int4, ${p('now')}::timestamptz
      from voter v
    ), claim as (
      update claims set votes = votes + ${p('n')}::int4
      where id = ${p('claimId')}::int4 and exists (select 1 from vote)
      returning votes
    )
    select v.silver, c.votes from voter v, claim c`,
);

export async function castVote(
  db: DbOrTx,
  values: { claimId: number; userId: number; n: number; now: Date },
): Promise<{ silver: number; votes: number } | undefined> {
  const rows = await castVoteStmt(db, values);
  return rows[0];
}

/**
 * Takes up to `limit` pending earnings (skipping rows another settling transaction holds),
 * summed per hunter user and claim, in user order.
 */
export function takePendingEarnings(
  tx: DbOrTx,
  limit: number,
): Promise<{ user_id: number; claim_id: number; amount: number }[]> {
  return queryRows(
    tx,
    sql`with batch as (
        delete from vote_earnings_pending where id in (
          select id from vote_earnings_pending order by id limit ${limit} for update skip locked
        )
        returning user_id, claim_id, amount
      )
      select user_id, claim_id, sum(amount)::int as amount from batch
      group by user_id, claim_id order by user_id, claim_id`,
  );
}

/** Rounds past their end and not yet closed, oldest end first (rounds_open_end_idx). */
export function dueRounds(db: DbOrTx, now: Date, limit: number): Promise<RoundRow[]> {
  return db
    .select()
    .from(rounds)
    .where(and(isNull(rounds.closedAt), lt(rounds.endDate, now)))
    .orderBy(asc(rounds.endDate))
    .limit(limit);
}

export async function closeRound(tx: DbOrTx, roundRowId: number, now: Date): Promise<boolean> {
  const rows = await tx
    .update(rounds)
    .set({ closedAt: now })
    .where(and(eq(rounds.id, roundRowId), isNull(rounds.closedAt)))
    .returning({ id: rounds.id });
  return rows.length > 0;
}

export function lockRoundById(tx: DbOrTx, id: number): Promise<RoundRow | undefined> {
  return tx
    .select()
    .from(rounds)
    .where(eq(rounds.id, id))
    .for('update')
    .then((r) => r[0]);
}

export function hunterUserId(db: DbOrTx, hunterId: number): Promise<number | undefined> {
  return db
    .select({ userId: hunters.userId })
    .from(hunters)
    .where(eq(hunters.id, hunterId))
    .limit(1)
    .then((r) => r[0]?.userId);
}

export interface SearchRow {
  id: number;
  user_id: number;
  title: string;
  amount: number;
  media_type: number;
  round_count: number;
  status: string;
  winner_claim_id: number | null;
  created_at: Date | string;
  /** created_at with microseconds, UTC, for the cursor. */
  created_key: string;
  rank: number | string | null;
}

export interface SearchCursor {
  /** ts_rank of the last row (term searches only). */
  r?: number;
  /** created_at of the last row, microsecond text. */
  c: string;
  i: number;
}

const SEARCH_CREATED_KEY = sql`to_char(b.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const SEARCH_BASE = sql`b.id, b.user_id, b.title, b.amount, b.media_type, b.round_count, b.status,
  b.winner_claim_id, b.created_at, ${SEARCH_CREATED_KEY} as created_key`;
const searchStmts = new Map<string, ReturnType<typeof preparedRows<SearchRow>>>();

/** The search statement for one combination of term / cursor / excluded id, prepared once. */
function searchStmt(term: boolean, after: boolean, exclude: boolean) {
  const key = `bounties_search_${Number(term)}${Number(after)}${Number(exclude)}`;
  let stmt = searchStmts.get(key);
  if (stmt) return stmt;
  const p = (name: string) => sql.placeholder(name);
  const where: SQL[] = [];
  if (exclude) where.push(sql`b.id <> ${p('excludeId')}`);
  if (term) {
    const q = sql`to_tsquery('simple', ${p('tsquery')})`;
    const rank = sql`ts_rank(b.search, ${q})`;
    where.push(sql`b.search @@ ${q}`);
    if (after)
      where.push(
        sql`(${rank}, b.created_at, b.id) < (${p('r')}::real, ${p('c')}::timestamptz, ${p('i')}::int4)`,
      );
    stmt = preparedRows<SearchRow>(
      key,
      sql`select ${SEARCH_BASE}, ${rank} as rank from bounties b
        where ${sql.join(where, sql` and `)}
        order by rank desc, b.created_at desc nulls last, b.id desc nulls last
        limit ${p('limit')}`,
    );
  } else {
    if (after) where.push(sql`(b.created_at, b.id) < (${p('c')}::timestamptz, ${p('i')}::int4)`);
    stmt = preparedRows<SearchRow>(
      key,
      sql`select ${SEARCH_BASE}, null as rank from bounties b
        ${where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``}
        -- nulls last: the order of bounties_created_idx, so the newest page is an index walk.
        order by b.created_at desc nulls last, b.id desc nulls last
        limit ${p('limit')}`,
    );
  }
  searchStmts.set(key, stmt);
  return stmt;
}

/**
 * One page of bounties: with a tsquery, matches ordered by relevance then recency; without,
 * every bounty newest first. Keyset paging on (rank, created_at, id).
 */
export async function searchBounties(
  db: DbOrTx,
  opts: { tsquery: string | null; excludeId?: number; limit: number; after?: SearchCursor },
): Promise<SearchRow[]> {
  const stmt = searchStmt(!!opts.tsquery, !!opts.after, opts.excludeId !== undefined);
  return stmt(db, {
    limit: opts.limit,
    ...(opts.tsquery ? { tsquery: opts.tsquery } : {}),
    ...(opts.excludeId !== undefined ? { excludeId: opts.excludeId } : {}),
    ...(opts.after ? { r: opts.after.r ?? 0, c: opts.after.c, i: opts.after.i } : {}),
  });
}

export function bountyRowToSearchRow(b: BountyRow): SearchRow {
  return {
    id: b.id,
    user_id: b.userId,
    title: b.title,
    amount: b.amount,
    media_type: b.mediaType,
    round_count: b.roundCount,
    status: b.status,
    winner_claim_id: b.winnerClaimId,
    created_at: b.createdAt,
    created_key: b.createdAt.toISOString(),
    rank: null,
  };
}
