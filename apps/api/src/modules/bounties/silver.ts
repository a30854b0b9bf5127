/**
 * Silver moves of this feature (hold, win, refund, vote). Same signatures as the billing
 * feature's silver service so this file can be swapped for it: every change of users.silver
 * writes a silver_ledger row, inside the caller's transaction.
 */
import { and, eq, gte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { silverLedger, users } from '../../db/schema';
import { notFound, paymentRequired } from '../../errors';
import { BOUNTY_MSG } from '@bountyhunt/shared/bounties';

export type SilverReason =
  'vote' | 'vote_earnings' | 'bounty_hold' | 'bounty_win' | 'bounty_refund';

export interface SilverOptions {
  at?: Date;
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
  await tx
    .insert(silverLedger)
    .values({ userId, delta, balanceAfter, reason, refId, ...(at ? { createdAt: at } : {}) });
}

/** Takes `amount` (> 0) from the user or throws 402; a single conditional UPDATE, so never overdraws. */
export async function debitSilver(
  tx: DbOrTx,
  userId: number,
  amount: number,
  reason: SilverReason,
  refId: number | null = null,
  opts: SilverOptions = {},
): Promise<number> {
  const [row] = await tx
    .update(users)
    .set({ silver: sql`${users.silver} - ${amount}` })
    .where(and(eq(users.id, userId), gte(users.silver, amount)))
    .returning({ silver: users.silver });
  if (!row) throw paymentRequired(BOUNTY_MSG.notEnoughSilver, 'NOT_ENOUGH_SILVER');
  await record(tx, userId, -amount, row.silver, reason, refId, opts.at);
  return row.silver;
}

/** Gives `amount` (> 0) to the user. */
export async function creditSilver(
  tx: DbOrTx,
  userId: number,
  amount: number,
  reason: SilverReason,
  refId: number | null = null,
  opts: SilverOptions = {},
): Promise<number> {
  const [row] = await tx
    .update(users)
    .set({ silver: sql`${users.silver} + ${amount}` })
    .where(eq(users.id, userId))
    .returning({ silver: users.silver });
  if (!row) throw notFound('User not found.');
  await record(tx, userId, amount, row.silver, reason, refId, opts.at);
  return row.silver;
}
