/**
 * The bounties module's read interface for other modules (profiles): the bounties, rounds,
 * claims and votes tables are this module's, and these are the reads others make of them.
 * A hunter's claim list stays one statement (claims joined with bounty, round and hunter);
 * the hunter's claim totals are a SQL fragment profiles composes with its own post counts.
 */
import { and, desc, eq, gte, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import { keysetWhere, type Keyset } from '../../db/keyset';
import { bounties, claims, votes } from '../../db/schema';
import { microsecondKey } from '../../lib/dates';
import { HUNTER_CARD_COLUMNS, hunterCardJoin } from '../users/users.read';
import type { ClaimView } from './claims.repository';

/** The bounty exists and is not hidden by moderators. */
export async function bountyExists(db: DbOrTx, bountyId: number): Promise<boolean> {
  const rows = await db
    .select({ id: bounties.id })
    .from(bounties)
    .where(and(eq(bounties.id, bountyId), isNull(bounties.hiddenAt)))
    .limit(1);
  return rows.length > 0;
}

/** A claim of a hunter's list: the claim view, its microsecond key and its rank in its round. */
export interface HunterClaimRow extends ClaimView {
  /** created_at, microsecond text (the cursor key and the answer's `created`). */
  ts: string;
  rank: unknown;
}

/*
 * drizzle-kit writes `.desc()` index columns as DESC NULLS LAST while a bare ORDER BY x DESC
 * means NULLS FIRST; the ORDER BY below spells NULLS LAST so the planner walks
 * claims_hunter_feed_idx in order instead of sorting every claim of the hunter.
 */

/**
 * A hunter's claims, newest first, each with its rank in its round: 1 + the claims of the same
 * round with more votes + those with as many votes created earlier (CONTRACT.md: ties go to the
 * earlier claim). Two counts rather than one OR so each is a range of claims_round_rank_idx.
 */
export function hunterClaimsPageQuery(
  hunterId: number,
  limit: number,
  after?: Keyset,
  includeHidden = false,
): SQL {
  // Hidden claims, and claims of hidden bounties, are left out before the page is cut (the
  // keyset page stays full); the hunter and admins see them (includeHidden).
  const visible = includeHidden
    ? sql``
    : sql` and c.hidden_at is null
              and not exists (select 1 from bounties hb where hb.id = c.bounty_id and hb.hidden_at is not null)`;
  return sql`select c.id, c.bounty_id, b.title, c.round_number, r.end_date, ${HUNTER_CARD_COLUMNS},
        c.media, c.votes, c.created_at, c.hidden_at is not null as hidden,
        ${microsecondKey(sql`c.created_at`)} as ts,
        1 + (select count(*) from claims c2
             where c2.bounty_id = c.bounty_id and c2.round_number = c.round_number
               and c2.votes > c.votes)
          + (select count(*) from claims c3
             where c3.bounty_id = c.bounty_id and c3.round_number = c.round_number
               and c3.votes = c.votes and (c3.created_at, c3.id) < (c.created_at, c.id)) as rank
      from (select * from claims c
            where c.hunter_id = ${hunterId}${keysetWhere('c', after)}${visible}
            order by c.created_at desc nulls last, c.id desc nulls last
            limit ${limit}) c
      join bounties b on b.id = c.bounty_id
      ${hunterCardJoin(sql`c.hunter_id`)}
      left join rounds r on r.bounty_id = c.bounty_id and r.number = c.round_number
      order by c.created_at desc, c.id desc`;
}

export function listHunterClaims(
  db: DbOrTx,
  hunterId: number,
  limit: number,
  after?: Keyset,
  includeHidden = false,
): Promise<HunterClaimRow[]> {
  return queryRows<HunterClaimRow>(
    db,
    hunterClaimsPageQuery(hunterId, limit, after, includeHidden),
  );
}

/**
 * SQL fragment: one row `(claims, votes)` of the hunter `hunterId` points at, an index-only
 * count over claims_hunter_feed_idx (which carries votes).
 */
export function hunterClaimTotals(hunterId: SQL): SQL {
  return sql`select count(*) as claims, coalesce(sum(c.votes), 0) as votes
          from claims c where c.hunter_id = ${hunterId}`;
}

/** The operations dashboard: claims and votes since a moment (claims_created_idx, votes_created_idx). */
export async function activitySince(
  db: DbOrTx,
  since: Date,
): Promise<{ claims: number; votes: number }> {
  const [c] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(claims)
    .where(gte(claims.createdAt, since));
  const [v] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(votes)
    .where(gte(votes.createdAt, since));
  return { claims: Number(c?.n ?? 0), votes: Number(v?.n ?? 0) };
}

/** A vote a user cast, with the claim's bounty (the admin console's user page). */
export interface UserVoteRow {
  id: number;
  claimId: number;
  bountyId: number;
  bountyTitle: string;
  value: number;
  createdAt: Date;
}

/** The user's newest votes (votes_user_idx: user_id, id desc). */
export function recentVotesOf(db: DbOrTx, userId: number, limit: number): Promise<UserVoteRow[]> {
  return db
    .select({
      id: votes.id,
      claimId: votes.claimId,
      bountyId: claims.bountyId,
      bountyTitle: bounties.title,
      value: votes.value,
      createdAt: votes.createdAt,
    })
    .from(votes)
    .innerJoin(claims, eq(claims.id, votes.claimId))
    .innerJoin(bounties, eq(bounties.id, claims.bountyId))
    .where(eq(votes.userId, userId))
    .orderBy(desc(votes.id))
    .limit(limit);
}

/** A hunter's claim as the admin console lists it, hidden ones included. */
export interface AdminClaimRow {
  id: number;
  bountyId: number;
  bountyTitle: string;
  roundNumber: number;
  media: string;
  votes: number;
  hiddenAt: Date | null;
  createdAt: Date;
}

/** The hunter's newest claims, hidden ones too (claims_hunter_feed_idx). */
export function recentClaimsOf(
  db: DbOrTx,
  hunterId: number,
  limit: number,
): Promise<AdminClaimRow[]> {
  return db
    .select({
      id: claims.id,
      bountyId: claims.bountyId,
      bountyTitle: bounties.title,
      roundNumber: claims.roundNumber,
      media: claims.media,
      votes: claims.votes,
      hiddenAt: claims.hiddenAt,
      createdAt: claims.createdAt,
    })
    .from(claims)
    .innerJoin(bounties, eq(bounties.id, claims.bountyId))
    .where(eq(claims.hunterId, hunterId))
    .orderBy(sql`${claims.createdAt} desc nulls last`, sql`${claims.id} desc nulls last`)
    .limit(limit);
}

/** A member's votes cast since `since`, newest first (a refunded payment's spent silver). */
export function votesOfSince(
  db: DbOrTx,
  userId: number,
  since: Date,
): Promise<{ claimId: number; value: number }[]> {
  return db
    .select({ claimId: votes.claimId, value: votes.value })
    .from(votes)
    .where(and(eq(votes.userId, userId), gte(votes.createdAt, since)))
    .orderBy(desc(votes.id));
}
