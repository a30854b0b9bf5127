/**
 * Votes: the votes table and the hunters' pending earnings (vote_earnings_pending), both
 * written by the one-statement vote (docs/decisions/0006-votes-in-one-statement.md).
 */
import { and, eq, sql } from 'drizzle-orm';
import { preparedRows, queryRows, type DbOrTx } from '../../db/client';
import { votes } from '../../db/schema';
import { silverDebitUpdate, silverLedgerInsert } from '../billing/silver.sql';
import { activeMember, countVotesCast, hunterJoin } from '../users/users.read';

const p = (name: string) => sql.placeholder(name);

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
 * the claim exists and is not hidden, its round is open (key-share locked, so the closing job waits for the
 * vote), the voter is an active member (role 1) who is not the claim's hunter and has `n`
 * silver. Then: the voter's silver -n and votes +n, the vote row, the voter's ledger row,
 * the hunter's pending earnings and the claim's votes +n. Nothing when a rule fails (the
 * caller asks why); a second vote by the same member fails on the unique (claim, user) index.
 * It writes tables of other modules through the fragments their owners export: silver's
 * debit and ledger row (billing/silver.sql.ts), the voter's checks and vote count and the
 * hunter join (users/users.read.ts).
 */
const castVoteStmt = preparedRows<{
  silver: number;
  votes: number;
  bounty_id: number;
  round_number: number;
}>(
  'votes_cast',
  sql`with target as (
      select c.id, c.bounty_id, c.round_number, h.user_id as hunter_user
      from claims c ${hunterJoin(sql`c.hunter_id`)}
      -- A claim hidden by moderators takes no votes (the caller answers 404).
      where c.id = ${p('claimId')}::int4 and c.hidden_at is null
    ), open_round as (
      select r.id from rounds r join target t on r.bounty_id = t.bounty_id and r.number = t.round_number
      where r.closed_at is null and r.end_date >= ${p('now')}::timestamptz
      for key share of r
    ), voter as (
      ${silverDebitUpdate({
        userId: sql`${p('userId')}::int4`,
        amount: sql`${p('n')}::int4`,
        alsoSet: countVotesCast(sql`${p('n')}::int4`),
        from: sql`target t, open_round o`,
        where: sql`${activeMember(sql`${p('now')}::timestamptz`)} and t.hunter_user <> u.id`,
        returning: sql`t.hunter_user, u.membership`,
      })}
    ), vote as (
      insert into votes (claim_id, user_id, value, created_at)
      select ${p('claimId')}::int4, ${p('userId')}::int4, ${p('n')}::int4, ${p('now')}::timestamptz
      from voter
      returning id
    ), ledger as (
      ${silverLedgerInsert({
        source: sql`voter v`,
        userId: sql`${p('userId')}::int4`,
        delta: sql`-${p('n')}::int4`,
        balanceAfter: sql`v.silver`,
        reason: sql`'vote'`,
        refId: sql`${p('claimId')}::int4`,
        at: sql`${p('now')}::timestamptz`,
      })}
    ), earnings as (
      insert into vote_earnings_pending (user_id, claim_id, amount, plan_index, created_at)
      select v.hunter_user, ${p('claimId')}::int4, ${p('n')}::int4, v.membership, ${p('now')}::timestamptz
      from voter v
    ), claim as (
      update claims set votes = votes + ${p('n')}::int4
      where id = ${p('claimId')}::int4 and exists (select 1 from vote)
      returning votes
    )
    select v.silver, c.votes, t.bounty_id, t.round_number from voter v, claim c, target t`,
);

export async function castVote(
  db: DbOrTx,
  values: { claimId: number; userId: number; n: number; now: Date },
): Promise<{ silver: number; votes: number; bountyId: number; roundNumber: number } | undefined> {
  const rows = await castVoteStmt(db, values);
  const r = rows[0];
  return (
    r && {
      silver: r.silver,
      votes: r.votes,
      bountyId: Number(r.bounty_id),
      roundNumber: Number(r.round_number),
    }
  );
}

export interface VoteToCast {
  claimId: number;
  userId: number;
  n: number;
  now: Date;
}

export interface CastVote {
  silver: number;
  votes: number;
  bountyId: number;
  roundNumber: number;
}

/**
 * Many votes in one statement (docs/decisions/0023-votes-in-batches.md): the rules and writes
 * of `castVote` for each vote of the batch, whose voters are all different. A vote whose rule
 * fails, or whose voter has already voted on the claim, is left out of the answer (the caller
 * asks why, as after `castVote`). Each claim is updated once, by the sum of its votes, so each
 * vote's answer carries its claim's total after the whole batch.
 */
const castVotesStmt = preparedRows<{
  k: string | number;
  silver: number;
  votes: number;
  bounty_id: number;
  round_number: number;
}>(
  'votes_cast_many',
  sql`with b as (
      select * from unnest(${p('claimIds')}::int4[], ${p('userIds')}::int4[], ${p('ns')}::int4[],
        ${p('nows')}::timestamptz[]) with ordinality as b(claim_id, user_id, n, at, k)
    ), target as (
      select b.k, b.claim_id, b.user_id, b.n, b.at, c.bounty_id, c.round_number,
        h.user_id as hunter_user
      from b join claims c on c.id = b.claim_id ${hunterJoin(sql`c.hunter_id`)}
      -- A claim hidden by moderators takes no votes (the caller answers 404).
      where c.hidden_at is null
    ), open_round as (
      select r.bounty_id, r.number, r.end_date from rounds r
      where (r.bounty_id, r.number) in (select t.bounty_id, t.round_number from target t)
        and r.closed_at is null
      for key share of r
    ), ready as (
      select t.* from target t
      join open_round o on o.bounty_id = t.bounty_id and o.number = t.round_number
      where o.end_date >= t.at
        and not exists (select 1 from votes v where v.claim_id = t.claim_id and v.user_id = t.user_id)
    ), voter as (
      ${silverDebitUpdate({
        userId: sql`t.user_id`,
        amount: sql`t.n`,
        alsoSet: countVotesCast(sql`t.n`),
        from: sql`ready t`,
        where: sql`${activeMember(sql`t.at`)} and t.hunter_user <> u.id`,
        returning: sql`u.id as user_id, t.k, t.claim_id, t.n, t.at, t.bounty_id, t.round_number, t.hunter_user, u.membership`,
      })}
    ), vote as (
      insert into votes (claim_id, user_id, value, created_at)
      select v.claim_id, v.user_id, v.n, v.at from voter v
    ), ledger as (
      ${silverLedgerInsert({
        source: sql`voter v`,
        userId: sql`v.user_id`,
        delta: sql`-v.n`,
        balanceAfter: sql`v.silver`,
        reason: sql`'vote'`,
        refId: sql`v.claim_id`,
        at: sql`v.at`,
      })}
    ), earnings as (
      insert into vote_earnings_pending (user_id, claim_id, amount, plan_index, created_at)
      select v.hunter_user, v.claim_id, v.n, v.membership, v.at from voter v
    ), sums as (
      select claim_id, sum(n)::int4 as n from voter group by claim_id
    ), claim as (
      update claims c set votes = c.votes + s.n from sums s
      where c.id = s.claim_id
      returning c.id, c.votes
    )
    select v.k, v.silver, c.votes, v.bounty_id, v.round_number
    from voter v join claim c on c.id = v.claim_id`,
);

/** The answers of `castVotesStmt`, by position in `batch`; undefined where a rule failed. */
export async function castVotes(
  db: DbOrTx,
  batch: VoteToCast[],
): Promise<(CastVote | undefined)[]> {
  const rows = await castVotesStmt(db, {
    claimIds: batch.map((v) => v.claimId),
    userIds: batch.map((v) => v.userId),
    ns: batch.map((v) => v.n),
    nows: batch.map((v) => v.now.toISOString()),
  });
  const answers: (CastVote | undefined)[] = batch.map(() => undefined);
  for (const r of rows)
    answers[Number(r.k) - 1] = {
      silver: r.silver,
      votes: r.votes,
      bountyId: Number(r.bounty_id),
      roundNumber: Number(r.round_number),
    };
  return answers;
}

/**
 * Takes up to `limit` pending earnings (skipping rows another settling transaction holds),
 * summed per hunter user, claim and the voters' plan, in user order; `hidden` when the claim
 * has been hidden by moderators since.
 */
export async function takePendingEarnings(
  tx: DbOrTx,
  limit: number,
): Promise<
  {
    user_id: number;
    claim_id: number;
    plan_index: number | null;
    amount: number;
    hidden: boolean;
  }[]
> {
  const rows = await queryRows<{
    user_id: number;
    claim_id: number;
    plan_index: number | null;
    amount: number;
    hidden: boolean | string;
  }>(
    tx,
    sql`with batch as (
        delete from vote_earnings_pending where id in (
          select id from vote_earnings_pending order by id limit ${limit} for update skip locked
        )
        returning user_id, claim_id, plan_index, amount
      )
      -- FOR SHARE: a moderator hiding one of these claims waits for this settlement (and then
      -- reverses what it recorded), or this waits for the hide and sees the claim hidden.
      , locked as (
        select c.id, c.hidden_at from claims c where c.id in (select claim_id from batch) for share
      )
      select b.user_id, b.claim_id, b.plan_index, sum(b.amount)::int as amount,
        bool_or(c.hidden_at is not null) as hidden
      from batch b left join locked c on c.id = b.claim_id
      group by b.user_id, b.claim_id, b.plan_index order by b.user_id, b.claim_id`,
  );
  return rows.map((r) => ({ ...r, hidden: r.hidden === true || r.hidden === 't' }));
}
