/** The account module's table: password reset codes. */
import { and, eq, gt, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { passwordResets } from '../../db/schema';

export async function insertResetCode(
  db: DbOrTx,
  values: { userId: number; codeHash: string; expiresAt: Date; now: Date },
): Promise<void> {
  await db.insert(passwordResets).values({
    userId: values.userId,
    codeHash: values.codeHash,
    expiresAt: values.expiresAt,
    createdAt: values.now,
  });
}

/**
 * Marks a live code used and returns its user, in one statement so two requests racing with
 * the same code cannot both win.
 */
export async function consumeResetCode(
  db: DbOrTx,
  codeHash: string,
  now: Date,
): Promise<number | undefined> {
  const rows = await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResets.codeHash, codeHash),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResets.userId });
  return rows[0]?.userId;
}

/** After a reset every other outstanding code of the user stops working too. */
export async function retireResetCodes(db: DbOrTx, userId: number, now: Date): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** Codes used or expired more than a day ago are of no use to anyone. */
export async function purgeResetCodes(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db
    .delete(passwordResets)
    .where(
      or(
        sql`${passwordResets.expiresAt} < ${before}`,
        and(isNotNull(passwordResets.usedAt), sql`${passwordResets.usedAt} < ${before}`),
      ),
    )
    .returning({ id: passwordResets.id });
  return rows.length;
}
