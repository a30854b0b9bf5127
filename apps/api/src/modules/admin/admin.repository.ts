/** The admin module's tables: TOTP factors and recovery codes. */
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { adminFactors, adminRecoveryCodes } from '../../db/schema';

export function findFactor(db: DbOrTx, userId: number) {
  return db
    .select()
    .from(adminFactors)
    .where(eq(adminFactors.userId, userId))
    .limit(1)
    .then((r) => r[0]);
}

/** Starts (or restarts) a pending enrolment: a new secret, new recovery codes. */
export async function replacePendingFactor(
  db: DbOrTx,
  values: { userId: number; secretEnc: string; codeHashes: string[]; now: Date },
): Promise<void> {
  await db
    .insert(adminFactors)
    .values({ userId: values.userId, secretEnc: values.secretEnc, createdAt: values.now })
    .onConflictDoUpdate({
      target: adminFactors.userId,
      set: { secretEnc: values.secretEnc, createdAt: values.now, enrolledAt: null, lastStep: null },
      // Never replaces a confirmed factor.
      setWhere: isNull(adminFactors.enrolledAt),
    });
  await db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, values.userId));
  await db
    .insert(adminRecoveryCodes)
    .values(values.codeHashes.map((codeHash) => ({ userId: values.userId, codeHash })));
}

/**
 * Accepts the code of time step `step` once: false when this or a later step was already used
 * (a replayed code). `confirm` also ends a pending enrolment.
 */
export async function acceptStep(
  db: DbOrTx,
  userId: number,
  step: number,
  now: Date,
  confirm: boolean,
): Promise<boolean> {
  const rows = await db
    .update(adminFactors)
    .set(confirm ? { lastStep: step, enrolledAt: now } : { lastStep: step })
    .where(
      and(
        eq(adminFactors.userId, userId),
        confirm ? isNull(adminFactors.enrolledAt) : undefined,
        or(isNull(adminFactors.lastStep), lt(adminFactors.lastStep, step)),
      ),
    )
    .returning({ userId: adminFactors.userId });
  return rows.length > 0;
}

/** Uses an unused recovery code of the user; false when there is none with that hash. */
export async function useRecoveryCode(
  db: DbOrTx,
  userId: number,
  codeHash: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(adminRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(adminRecoveryCodes.userId, userId),
        eq(adminRecoveryCodes.codeHash, codeHash),
        isNull(adminRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: adminRecoveryCodes.id });
  return rows.length > 0;
}

/** Removes the authenticator and the recovery codes: the next sign-in enrols again. */
export async function deleteFactor(db: DbOrTx, userId: number): Promise<boolean> {
  await db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, userId));
  const gone = await db
    .delete(adminFactors)
    .where(eq(adminFactors.userId, userId))
    .returning({ userId: adminFactors.userId });
  return gone.length > 0;
}
