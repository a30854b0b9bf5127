/**
 * The only code of this feature that touches the database. Reads that shape answers use
 * SQL written for the indexes of db/schema/bounties.ts (see bench/explain-bounties.ts).
 */
import { and, asc, eq, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import { bounties, claims, hunters, media, rounds, users, votes } from '../../db/schema';

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

export function findBounty(
  db: DbOrTx,
  id: number,
  lock?: 'no key update',
): Promise<BountyRow | undefined> {
  const q = db.select().from(bounties).where(eq(bounties.id, id)).limit(1);
  return (lock ? q.for(lock) : q).then((r) => r[0]);
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

export async function findClaimView(db: DbOrTx, id: number): Promise<ClaimView | undefined> {
  const rows = await queryRows<ClaimView>(
    db,
    sql`select ${CLAIM_COLUMNS} ${CLAIM_JOINS} where c.id = ${id}`,
  );
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

/** Locks the given user rows in id order (so two transactions never wait on each other in a cycle). */
export async function lockUsers(tx: DbOrTx, ids: number[]): Promise<void> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (unique.length === 0) return;
  await queryRows(
    tx,
    sql`select id from users where id in (${sql.join(
      unique.map((id) => sql`${id}`),
      sql`, `,
    )}) order by id for no key update`,
  );
}

/** Rounds of the given bounties, each with at most `perRound` claims in rank order. */
export async function roundsWithClaims(
  db: DbOrTx,
  bountyIds: number[],
  perRound: number,
): Promise<RoundClaimView[]> {
  if (bountyIds.length === 0) return [];
  return queryRows<RoundClaimView>(
    db,
    sql`select rr.bounty_id as r_bounty_id, rr.number as r_number, rr.end_date as r_end_date, x.*
      from rounds rr
      left join lateral (
        select ${CLAIM_COLUMNS} ${CLAIM_JOINS}
        where c.bounty_id = rr.bounty_id and c.round_number = rr.number
        order by ${RANK_ORDER}
        limit ${perRound}
      ) x on true
      where rr.bounty_id in (${sql.join(
        bountyIds.map((id) => sql`${id}`),
        sql`, `,
      )})
      order by rr.bounty_id, rr.number, x.votes desc nulls last, x.created_at asc, x.id asc`,
  );
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

/** Inserts the vote unless this user already voted on this claim; true when inserted. */
export async function insertVote(
  tx: DbOrTx,
  values: { claimId: number; userId: number; value: number; createdAt: Date },
): Promise<boolean> {
  const rows = await tx
    .insert(votes)
    .values(values)
    .onConflictDoNothing({ target: [votes.claimId, votes.userId] })
    .returning({ id: votes.id });
  return rows.length > 0;
}

export async function addVotes(
  tx: DbOrTx,
  claimId: number,
  voterId: number,
  n: number,
): Promise<number> {
  const [row] = await tx
    .update(claims)
    .set({ votes: sql`${claims.votes} + ${n}` })
    .where(eq(claims.id, claimId))
    .returning({ votes: claims.votes });
  await tx
    .update(users)
    .set({ votes: sql`${users.votes} + ${n}` })
    .where(eq(users.id, voterId));
  return row!.votes;
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
    .for('no key update')
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

/**
 * One page of bounties: with a tsquery, matches ordered by relevance then recency; without,
 * every bounty newest first. Keyset paging on (rank, created_at, id).
 */
export async function searchBounties(
  db: DbOrTx,
  opts: { tsquery: string | null; excludeId?: number; limit: number; after?: SearchCursor },
): Promise<SearchRow[]> {
  const where: SQL[] = [];
  if (opts.excludeId !== undefined) where.push(sql`b.id <> ${opts.excludeId}`);
  const createdKey = sql`to_char(b.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  const base = sql`b.id, b.user_id, b.title, b.amount, b.media_type, b.round_count, b.status,
    b.winner_claim_id, b.created_at, ${createdKey} as created_key`;
  if (opts.tsquery) {
    const q = sql`to_tsquery('simple', ${opts.tsquery})`;
    const rank = sql`ts_rank(b.search, ${q})`;
    where.push(sql`b.search @@ ${q}`);
    if (opts.after)
      where.push(
        sql`(${rank}, b.created_at, b.id) < (${opts.after.r ?? 0}::real, ${opts.after.c}::timestamptz, ${opts.after.i})`,
      );
    return queryRows<SearchRow>(
      db,
      sql`select ${base}, ${rank} as rank from bounties b
        where ${sql.join(where, sql` and `)}
        order by rank desc, b.created_at desc nulls last, b.id desc nulls last
        limit ${opts.limit}`,
    );
  }
  if (opts.after)
    where.push(sql`(b.created_at, b.id) < (${opts.after.c}::timestamptz, ${opts.after.i})`);
  return queryRows<SearchRow>(
    db,
    sql`select ${base}, null as rank from bounties b
      ${where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``}
      -- nulls last: the order of bounties_created_idx, so the newest page is an index walk.
      order by b.created_at desc nulls last, b.id desc nulls last
      limit ${opts.limit}`,
  );
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
