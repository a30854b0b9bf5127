/** The billing feature's queries: charges ledger and the membership columns of users. */
import { and, eq, gt, isNotNull, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { charges, users, type UserRow } from '../../db/schema';

export type ChargeRow = typeof charges.$inferSelect;

export function lockUser(tx: DbOrTx, userId: number): Promise<UserRow | undefined> {
  return tx
    .select()
    .from(users)
    .where(eq(users.id, userId))
    .for('update')
    .then((r) => r[0]);
}

export function findChargeByKey(db: DbOrTx, key: string): Promise<ChargeRow | undefined> {
  return db
    .select()
    .from(charges)
    .where(eq(charges.idempotencyKey, key))
    .limit(1)
    .then((r) => r[0]);
}

export async function insertCharge(
  db: DbOrTx,
  values: typeof charges.$inferInsert,
): Promise<ChargeRow> {
  const [row] = await db.insert(charges).values(values).returning();
  return row!;
}

export function listCharges(db: DbOrTx, userId: number): Promise<ChargeRow[]> {
  return db.select().from(charges).where(eq(charges.userId, userId)).orderBy(charges.id);
}

/**
 * Members whose renewal is due: a card on file, `active` within `lead` from now but not
 * ended before `oldest`, not lapsed after the last attempt, and no retry scheduled later.
 */
export function findDueRenewals(
  db: DbOrTx,
  opts: {
    now: Date;
    dueBefore: Date;
    oldest: Date;
    maxFailures: number;
    skip: number[];
    limit: number;
  },
): Promise<{ id: number }[]> {
  return db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`(${users.role} & 1) <> 0`,
        isNotNull(users.cardToken),
        isNotNull(users.membership),
        lte(users.active, opts.dueBefore),
        gt(users.active, opts.oldest),
        lt(users.renewalFailures, opts.maxFailures),
        or(isNull(users.nextRenewalAttemptAt), lte(users.nextRenewalAttemptAt, opts.now)),
        opts.skip.length > 0 ? notInArray(users.id, opts.skip) : undefined,
      ),
    )
    .orderBy(users.active)
    .limit(opts.limit);
}
