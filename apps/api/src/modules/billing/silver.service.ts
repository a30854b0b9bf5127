/**
 * Silver: the one way any module changes a user's silver balance (CONTRACT.md "Money and
 * tokens"). Every change writes users.silver and a silver_ledger row together.
 *
 * Use inside the caller's transaction so the silver moves with the thing it pays for:
 *
 *   await db.transaction(async (tx) => {
 *     await debitSilver(tx, voterId, n, 'vote', claimId);   // 402 "Not enough silver." if short
 *     ...record the vote, raise the claim's votes...
 *   });
 *
 * - `debitSilver(tx, userId, amount, reason, refId?)` takes `amount` (> 0) or throws an
 *   AppError 402 (code NOT_ENOUGH_SILVER) and changes nothing. It is a single conditional
 *   UPDATE (`silver >= amount`), so concurrent debits never overdraw: the row lock makes
 *   the second one wait and re-check the balance.
 * - `creditSilver(tx, userId, amount, reason, refId?)` adds `amount` (> 0).
 * Both return the balance after the change. `reason` names the cause (see SilverReason;
 * add new ones to SILVER_REASON_LABEL in packages/shared/src/billing.ts) and `refId` the
 * row it concerns (claim, bounty…). Passing the database itself instead of a transaction
 * works but then only the silver change is atomic.
 */
import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { PAYMENT_MSG, type SilverAnswer } from '@bountyhunt/shared/billing';
import type { DbOrTx } from '../../db/client';
import { silverLedger, users } from '../../db/schema';
import { AppError, badRequest, paymentRequired } from '../../errors';
import { iso } from '../../lib/dates';

export type SilverReason =
  | 'membership'
  | 'renewal'
  | 'vote'
  | 'vote_earnings'
  | 'bounty_hold'
  | 'bounty_win'
  | 'bounty_refund'
  | 'admin_grant'
  | 'refund'
  // Open for reasons other features add.
  | (string & {});

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw badRequest('Silver amount must be a positive whole number.', 'BAD_SILVER_AMOUNT');
}

async function record(
  tx: DbOrTx,
  userId: number,
  delta: number,
  balanceAfter: number,
  reason: SilverReason,
  refId: number | null,
  at: Date | undefined,
): Promise<void> {
  await tx.insert(silverLedger).values({
    userId,
    delta,
    balanceAfter,
    reason,
    refId,
    ...(at ? { createdAt: at } : {}),
  });
}

export interface SilverOptions {
  /** Time stamped on the ledger row (the caller's clock); defaults to the database's now(). */
  at?: Date;
}

/** Takes `amount` silver from the user, or throws 402 NOT_ENOUGH_SILVER leaving everything as it was. */
export async function debitSilver(
  tx: DbOrTx,
  userId: number,
  amount: number,
  reason: SilverReason,
  refId: number | null = null,
  opts: SilverOptions = {},
): Promise<number> {
  checkAmount(amount);
  const [row] = await tx
    .update(users)
    .set({ silver: sql`${users.silver} - ${amount}` })
    .where(and(eq(users.id, userId), gte(users.silver, amount)))
    .returning({ silver: users.silver });
  if (!row) {
    const exists = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
    if (exists.length === 0) throw new AppError(404, 'NOT_FOUND', 'User not found.');
    throw paymentRequired(PAYMENT_MSG.notEnoughSilver, 'NOT_ENOUGH_SILVER');
  }
  await record(tx, userId, -amount, row.silver, reason, refId, opts.at);
  return row.silver;
}

/** Gives `amount` silver to the user. */
export async function creditSilver(
  tx: DbOrTx,
  userId: number,
  amount: number,
  reason: SilverReason,
  refId: number | null = null,
  opts: SilverOptions = {},
): Promise<number> {
  checkAmount(amount);
  const [row] = await tx
    .update(users)
    .set({ silver: sql`${users.silver} + ${amount}` })
    .where(eq(users.id, userId))
    .returning({ silver: users.silver });
  if (!row) throw new AppError(404, 'NOT_FOUND', 'User not found.');
  await record(tx, userId, amount, row.silver, reason, refId, opts.at);
  return row.silver;
}

/**
 * An admin's grant (the admin console): a credit with the ledger reason `admin_grant`, which
 * the member's silver history shows as SILVER_REASON_LABEL says. Returns the balance after.
 */
export function grantSilver(
  tx: DbOrTx,
  userId: number,
  amount: number,
  opts: SilverOptions = {},
): Promise<number> {
  return creditSilver(tx, userId, amount, 'admin_grant', null, opts);
}

/**
 * Many credits of one reason in one go (the earnings job): user rows are locked in id order
 * (no two callers wait on each other in a cycle), each user's balance rises by the sum of its
 * credits, and each credit gets its ledger row with the running balance. Two statements.
 */
export async function creditSilverMany(
  tx: DbOrTx,
  credits: { userId: number; amount: number; refId: number | null }[],
  reason: SilverReason,
  opts: SilverOptions = {},
): Promise<void> {
  if (credits.length === 0) return;
  for (const c of credits) checkAmount(c.amount);
  const ids = [...new Set(credits.map((c) => c.userId))].sort((a, b) => a - b);
  await tx.execute(
    sql`select id from users where id = any(${sql.param(ids)}::int4[]) order by id for no key update`,
  );
  const at = opts.at ?? new Date();
  await tx.execute(sql`with credit as (
      select * from unnest(${sql.param(credits.map((c) => c.userId))}::int4[],
        ${sql.param(credits.map((c) => c.amount))}::int4[],
        ${sql.param(credits.map((c) => c.refId))}::int4[]) with ordinality as t(user_id, amount, ref_id, n)
    ), per_user as (
      select user_id, sum(amount)::int as total from credit group by user_id
    ), raised as (
      update users u set silver = u.silver + p.total from per_user p where u.id = p.user_id
      returning u.id, u.silver - p.total as before
    )
    insert into silver_ledger (user_id, delta, balance_after, reason, ref_id, created_at)
    select c.user_id, c.amount,
      r.before + sum(c.amount) over (partition by c.user_id order by c.n), ${reason}, c.ref_id, ${at}
    from credit c join raised r on r.id = c.user_id`);
}

/** Balance and history, newest first, paged by id (`before` = nextBefore of the previous page). */
export async function silverHistory(
  db: DbOrTx,
  userId: number,
  opts: { limit: number; before?: number },
): Promise<SilverAnswer> {
  const [user] = await db.select({ silver: users.silver }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError(404, 'NOT_FOUND', 'User not found.');
  const rows = await db
    .select()
    .from(silverLedger)
    .where(
      and(
        eq(silverLedger.userId, userId),
        opts.before !== undefined ? lt(silverLedger.id, opts.before) : undefined,
      ),
    )
    .orderBy(desc(silverLedger.id))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  return {
    silver: user.silver,
    history: page.map((r) => ({
      id: r.id,
      delta: r.delta,
      balanceAfter: r.balanceAfter,
      reason: r.reason,
      refId: r.refId,
      created: iso(r.createdAt),
    })),
    nextBefore: rows.length > opts.limit ? page[page.length - 1]!.id : null,
  };
}
