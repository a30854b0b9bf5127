/** The account feature's queries: reset codes, hunter rows, re-encryption. */
import { and, eq, gt, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { hunters, passwordResets, users, type HunterRow } from '../../db/schema';

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

/** The hunter row of a creator, created if it is somehow missing. */
export async function ensureHunter(db: DbOrTx, userId: number): Promise<HunterRow> {
  const existing = await db.select().from(hunters).where(eq(hunters.userId, userId)).limit(1);
  if (existing[0]) return existing[0];
  await db.insert(hunters).values({ userId }).onConflictDoNothing();
  const [row] = await db.select().from(hunters).where(eq(hunters.userId, userId)).limit(1);
  return row!;
}

export async function updateHunter(
  db: DbOrTx,
  userId: number,
  values: Partial<Pick<HunterRow, 'stagename' | 'bio' | 'picture' | 'banner'>>,
): Promise<HunterRow> {
  await ensureHunter(db, userId);
  const [row] = await db.update(hunters).set(values).where(eq(hunters.userId, userId)).returning();
  return row!;
}

/** Users with a ciphertext made by a key other than `currentKeyId`, a batch at a time. */
export function findStaleCiphertexts(db: DbOrTx, currentKeyId: string, limit: number) {
  const prefix = `${currentKeyId}:%`;
  return db
    .select({ id: users.id, ssnEnc: users.ssnEnc, bankAccountEnc: users.bankAccountEnc })
    .from(users)
    .where(
      or(
        and(isNotNull(users.ssnEnc), sql`${users.ssnEnc} not like ${prefix}`),
        and(isNotNull(users.bankAccountEnc), sql`${users.bankAccountEnc} not like ${prefix}`),
      ),
    )
    .orderBy(users.id)
    .limit(limit);
}

/** Swaps a ciphertext only if it is still the one that was read (no lost concurrent update). */
export async function replaceCiphertexts(
  db: DbOrTx,
  id: number,
  before: { ssnEnc: string | null; bankAccountEnc: string | null },
  after: { ssnEnc: string | null; bankAccountEnc: string | null },
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set(after)
    .where(
      and(
        eq(users.id, id),
        before.ssnEnc === null ? isNull(users.ssnEnc) : eq(users.ssnEnc, before.ssnEnc),
        before.bankAccountEnc === null
          ? isNull(users.bankAccountEnc)
          : eq(users.bankAccountEnc, before.bankAccountEnc),
      ),
    )
    .returning({ id: users.id });
  return rows.length > 0;
}
