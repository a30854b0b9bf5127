/** The billing module's charges table (membership columns of users: users.read.ts / UsersService). */
import type { ChargeResult } from '../../payments/gateway';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { charges } from '../../db/schema';

export type ChargeRow = typeof charges.$inferSelect;

export function findChargeByKey(db: DbOrTx, key: string): Promise<ChargeRow | undefined> {
  return db
    .select()
    .from(charges)
    .where(eq(charges.idempotencyKey, key))
    .limit(1)
    .then((r) => r[0]);
}

async function insertCharge(db: DbOrTx, values: typeof charges.$inferInsert): Promise<ChargeRow> {
  const [row] = await db.insert(charges).values(values).returning();
  return row!;
}

/** A gateway answer as a charge row: the reference when it went through, the reason when not. */
export function recordCharge(
  db: DbOrTx,
  charge: {
    userId: number;
    idempotencyKey: string;
    kind: string;
    planIndex: number;
    amountCents: number;
    createdAt: Date;
  },
  result: ChargeResult,
): Promise<ChargeRow> {
  return insertCharge(db, {
    ...charge,
    status: result.status,
    gatewayRef: result.status === 'succeeded' ? result.reference : null,
    failureMessage: result.status === 'declined' ? result.message : null,
  });
}

export function listCharges(db: DbOrTx, userId: number): Promise<ChargeRow[]> {
  return db.select().from(charges).where(eq(charges.userId, userId)).orderBy(charges.id);
}

export async function findCharge(db: DbOrTx, id: number): Promise<ChargeRow | undefined> {
  const [row] = await db.select().from(charges).where(eq(charges.id, id)).limit(1);
  return row;
}

/** Refund rows are keyed `admin-refund:<chargeId>`: which of these charges were refunded. */
export async function refundedChargeIds(db: DbOrTx, userId: number): Promise<Set<number>> {
  const rows = await db
    .select({ key: charges.idempotencyKey })
    .from(charges)
    .where(and(eq(charges.userId, userId), eq(charges.kind, 'refund')));
  return new Set(
    rows.flatMap((r) =>
      r.key.startsWith(REFUND_KEY_PREFIX) ? [Number(r.key.slice(REFUND_KEY_PREFIX.length))] : [],
    ),
  );
}

export const REFUND_KEY_PREFIX = 'admin-refund:';
