/**
 * Claims: the claims table, and the single-statement reads of the claim page, the bounty page
 * and the feed's rounds (claims joined with their bounty, round and hunter).
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { preparedRows, queryRows, type DbOrTx } from '../../db/client';
import { claims } from '../../db/schema';
import { ANONYMOUS, type Viewer } from '../../lib/visibility';
import { HUNTER_CARD_COLUMNS, hunterCardJoin, notSuspended } from '../users/users.read';

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
  /** The claim itself is hidden by moderators. */
  hidden?: boolean | string | null;
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
  hidden: boolean | string | null;
}

const CLAIM_COLUMNS = sql`c.id, c.bounty_id, c.round_number, c.media, c.votes, c.created_at,
  b.title, r.end_date, ${HUNTER_CARD_COLUMNS}, c.hidden_at is not null as hidden`;

/**
 * SQL condition over claims `c`, bounties `b`, hunters `h` and users `u`: the claim is shown to
 * the viewer. A claim hidden by moderators, in a hidden bounty, of a hidden hunter or of a
 * suspended user is shown only to its hunter (`viewer`, a user id; 0 for anonymous) and, with
 * `seeAll`, to admins. Columns of rows the query reads anyway: no index is needed.
 */
export function claimVisible(viewer: SQL, seeAll: SQL): SQL {
  return sql`((c.hidden_at is null and b.hidden_at is null and h.hidden_at is null
      and ${notSuspended(sql`u`)}) or ${seeAll} or h.user_id = ${viewer})`;
}

const p = (name: string) => sql.placeholder(name);
const VISIBLE = claimVisible(sql`${p('viewer')}::int4`, sql`${p('seeAll')}::bool`);

/** Placeholders of the visibility condition for a viewer (anonymous: nothing hidden shows). */
export function visibilityParams(viewer: Viewer = ANONYMOUS): { viewer: number; seeAll: boolean } {
  return { viewer: viewer.userId, seeAll: viewer.admin };
}

const CLAIM_JOINS = sql`from claims c
  join bounties b on b.id = c.bounty_id
  join rounds r on r.bounty_id = c.bounty_id and r.number = c.round_number
  ${hunterCardJoin(sql`c.hunter_id`)}`;

/**
 * Claims of one round in rank order: most votes first, ties to the earlier claim. "nulls
 * last" matches claims_round_rank_idx (drizzle-kit writes DESC NULLS LAST), so the planner
 * reads the index in order instead of sorting the round.
 */
const RANK_ORDER = sql`c.votes desc nulls last, c.created_at asc, c.id asc`;

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
  sql`select ${CLAIM_COLUMNS} ${CLAIM_JOINS} where c.id = ${p('id')} and ${VISIBLE}`,
);

/** The claim page's row, when the viewer may see the claim. */
export async function findClaimView(
  db: DbOrTx,
  id: number,
  viewer: Viewer = ANONYMOUS,
): Promise<ClaimView | undefined> {
  const rows = await claimViewStmt(db, { id, ...visibilityParams(viewer) });
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

const roundsWithClaimsStmt = preparedRows<RoundClaimView>(
  'rounds_with_claims',
  sql`select rr.bounty_id as r_bounty_id, rr.number as r_number, rr.end_date as r_end_date, x.*
    from rounds rr
    left join lateral (
      select ${CLAIM_COLUMNS} ${CLAIM_JOINS}
      where c.bounty_id = rr.bounty_id and c.round_number = rr.number and ${VISIBLE}
      order by ${RANK_ORDER}
      limit ${sql.placeholder('perRound')}
    ) x on true
    where rr.bounty_id = any(${sql.placeholder('ids')}::int4[])
    order by rr.bounty_id, rr.number, x.votes desc nulls last, x.created_at asc, x.id asc`,
);

/**
 * Rounds of the given bounties, each with at most `perRound` claims the viewer may see in rank
 * order (the feed, cached for everyone, asks as an anonymous viewer).
 */
export async function roundsWithClaims(
  db: DbOrTx,
  bountyIds: number[],
  perRound: number,
  viewer: Viewer = ANONYMOUS,
): Promise<RoundClaimView[]> {
  if (bountyIds.length === 0) return [];
  return roundsWithClaimsStmt(db, { ids: bountyIds, perRound, ...visibilityParams(viewer) });
}

/** The bounty page's rows: the bounty's columns (b_*) on each of its rounds' rows. */
export interface BountyPageRow extends Omit<RoundClaimView, 'r_bounty_id' | 'r_number'> {
  r_bounty_id: number | null;
  r_number: number | null;
  b_id: number;
  b_user_id: number;
  b_title: string;
  b_amount: number;
  b_media_type: number;
  b_round_count: number;
  b_status: string;
  b_winner_claim_id: number | null;
  b_created_at: Date | string;
  b_hidden_at: Date | string | null;
  /**
   * A claim of the bounty is out of the public's view (hidden, of a hidden hunter or of a
   * suspended user): with b_hidden_at, whether its page differs by viewer.
   */
  b_hidden_claims: boolean | string;
}

const bountyPageStmt = preparedRows<BountyPageRow>(
  'bounty_page',
  sql`select b.id as b_id, b.user_id as b_user_id, b.title as b_title, b.amount as b_amount,
      b.media_type as b_media_type, b.round_count as b_round_count, b.status as b_status,
      b.winner_claim_id as b_winner_claim_id, b.created_at as b_created_at,
      b.hidden_at as b_hidden_at,
      exists (
        select 1 from claims c join bounties b on b.id = c.bounty_id ${hunterCardJoin(sql`c.hunter_id`)}
        where c.bounty_id = ${sql.placeholder('id')}::int4 and not ${claimVisible(sql`0::int4`, sql`false`)}
      ) as b_hidden_claims,
      rr.bounty_id as r_bounty_id, rr.number as r_number, rr.end_date as r_end_date, x.*
    from bounties b
    left join rounds rr on rr.bounty_id = b.id
    left join lateral (
      select ${CLAIM_COLUMNS} ${CLAIM_JOINS}
      where c.bounty_id = rr.bounty_id and c.round_number = rr.number and ${VISIBLE}
      order by ${RANK_ORDER}
      limit ${sql.placeholder('perRound')}
    ) x on true
    where b.id = ${sql.placeholder('id')}::int4
    order by rr.number, x.votes desc nulls last, x.created_at asc, x.id asc`,
);

/**
 * The bounty page in one round trip (issue 21): the bounty, and its rounds each with at most
 * `perRound` claims the viewer may see in rank order, and whether anything of it is out of the
 * public's view (b_hidden_at, b_hidden_claims). No rows: no such bounty.
 */
export function bountyPage(
  db: DbOrTx,
  id: number,
  perRound: number,
  viewer: Viewer = ANONYMOUS,
): Promise<BountyPageRow[]> {
  return bountyPageStmt(db, { id, perRound, ...visibilityParams(viewer) });
}

/** The claim's rank among the round's claims the public sees (hidden ones do not count). */
export async function claimRank(db: DbOrTx, claimId: number): Promise<number | undefined> {
  const rows = await queryRows<{ rank: number | string }>(
    db,
    sql`select 1 + (
        select count(*) from claims o
        where o.bounty_id = c.bounty_id and o.round_number = c.round_number
          and (o.votes > c.votes
            or (o.votes = c.votes and (o.created_at, o.id) < (c.created_at, c.id)))
          and o.hidden_at is null
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

/** Hides (a time) or shows (null) a claim; hidden_at before and after, undefined when unknown. */
export async function setClaimHiddenAt(
  db: DbOrTx,
  id: number,
  at: Date | null,
): Promise<{ before: Date | null; after: Date | null } | undefined> {
  const [old] = await db
    .select({ hiddenAt: claims.hiddenAt })
    .from(claims)
    .where(eq(claims.id, id))
    .for('update');
  if (!old) return undefined;
  const after = at ? (old.hiddenAt ?? at) : null;
  await db.update(claims).set({ hiddenAt: after }).where(eq(claims.id, id));
  return { before: old.hiddenAt, after };
}

export interface ClaimPreviewRow {
  id: number;
  title: string;
  media: string;
  handle: string | null;
  user_id: number;
  hidden: boolean | string;
}

/** What the moderation queue shows of claims: bounty title, media, hunter handle. */
export function claimPreviews(db: DbOrTx, ids: number[]): Promise<ClaimPreviewRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return queryRows<ClaimPreviewRow>(
    db,
    sql`select c.id, b.title, c.media, u.handle, h.user_id, c.hidden_at is not null as hidden
      from claims c join bounties b on b.id = c.bounty_id ${hunterCardJoin(sql`c.hunter_id`)}
      where c.id in ${ids}`,
  );
}

/** A PostgreSQL array literal of whole numbers, bound as one parameter. */
const intArray = (ids: number[]) => `{${ids.map((n) => Math.trunc(n)).join(',')}}`;

/**
 * Live tallies (issue 19) of several rounds in one round trip (bounties.service.ts gathers
 * the rounds votes moved within a few milliseconds): per `bountyId:round`, the top `limit`
 * claims by rank (most votes, ties to the earlier claim; hidden claims neither count nor
 * show) and, beyond them, those of `also` (which may mix the claims of every round: a claim
 * belongs to one round only).
 */
export async function roundTallies(
  db: DbOrTx,
  rounds: { bountyId: number; roundNumber: number }[],
  limit: number,
  also: number[],
): Promise<Map<string, { claimId: number; votes: number; rank: number }[]>> {
  const out = new Map<string, { claimId: number; votes: number; rank: number }[]>();
  if (!rounds.length) return out;
  const rows = await queryRows<{
    bounty_id: number;
    round_number: number;
    id: number;
    votes: number | null;
    rank: number | string;
  }>(
    db,
    sql`select k.b as bounty_id, k.r as round_number, t.id, t.votes, t.rank
      from unnest(${intArray(rounds.map((r) => r.bountyId))}::int4[],
                  ${intArray(rounds.map((r) => r.roundNumber))}::int4[]) as k(b, r)
      cross join lateral (
        select id, votes, rank from (
          select c.id, c.votes, row_number() over (
            order by c.votes desc nulls last, c.created_at, c.id) as rank
          from claims c
          where c.bounty_id = k.b and c.round_number = k.r and c.hidden_at is null
            -- A bounty hidden by moderators shows nothing to its watchers.
            and not exists (select 1 from bounties b where b.id = c.bounty_id and b.hidden_at is not null)
        ) ranked
        where rank <= ${limit}${also.length ? sql` or id in ${also}` : sql``}
      ) t
      order by k.b, k.r, t.rank`,
  );
  for (const r of rows) {
    const key = `${r.bounty_id}:${r.round_number}`;
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    list.push({ claimId: r.id, votes: Number(r.votes ?? 0), rank: Number(r.rank) });
  }
  return out;
}
