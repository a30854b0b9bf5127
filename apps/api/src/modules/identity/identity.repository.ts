/** The identity module's table: identity_submissions (each submission and its decision). */
import { and, asc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { identitySubmissions } from '../../db/schema';
import { microsecondKey } from '../../lib/dates';

export type SubmissionRow = typeof identitySubmissions.$inferSelect;

export async function insertSubmission(
  db: DbOrTx,
  values: {
    userId: number;
    idFrontKey: string;
    idSelfieKey: string;
    ageAttested: boolean | null;
    createdAt: Date;
  },
): Promise<SubmissionRow> {
  const [row] = await db.insert(identitySubmissions).values(values).returning();
  return row!;
}

/**
 * Marks the user's pending submissions superseded by a newer one; their images age out like
 * decided ones (decided_at is the moment they were replaced). Returns how many.
 */
export async function supersedePending(db: DbOrTx, userId: number, now: Date): Promise<number> {
  const rows = await db
    .update(identitySubmissions)
    .set({ status: 'superseded', decidedAt: now })
    .where(and(eq(identitySubmissions.userId, userId), eq(identitySubmissions.status, 'pending')))
    .returning({ id: identitySubmissions.id });
  return rows.length;
}

export async function findSubmission(db: DbOrTx, id: number): Promise<SubmissionRow | undefined> {
  const [row] = await db.select().from(identitySubmissions).where(eq(identitySubmissions.id, id));
  return row;
}

/** The row, locked until the end of the transaction (two admins deciding at once). */
export async function lockSubmission(db: DbOrTx, id: number): Promise<SubmissionRow | undefined> {
  const [row] = await db
    .select()
    .from(identitySubmissions)
    .where(eq(identitySubmissions.id, id))
    .for('update');
  return row;
}

export async function decideSubmission(
  db: DbOrTx,
  id: number,
  values: {
    status: 'approved' | 'rejected';
    reasonCode: string | null;
    reasonText: string | null;
    decidedBy: number;
    decidedAt: Date;
  },
): Promise<SubmissionRow> {
  const [row] = await db
    .update(identitySubmissions)
    .set(values)
    .where(eq(identitySubmissions.id, id))
    .returning();
  return row!;
}

export interface QueueRow {
  row: SubmissionRow;
  /** created_at, microsecond-exact (the cursor). */
  key: string;
}

/**
 * Pending submissions, oldest first, after the keyset (created_at, id): one range scan of
 * the partial index identity_submissions_pending_idx.
 */
export async function pendingPage(
  db: DbOrTx,
  after: { ts: string; id: number } | undefined,
  limit: number,
): Promise<QueueRow[]> {
  const rows = await db
    .select({
      row: identitySubmissions,
      key: microsecondKey(sql`${identitySubmissions.createdAt}`),
    })
    .from(identitySubmissions)
    .where(
      and(
        sql`${identitySubmissions.status} = 'pending'`,
        after
          ? sql`(${identitySubmissions.createdAt}, ${identitySubmissions.id}) > (${after.ts}::timestamptz, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(asc(identitySubmissions.createdAt), asc(identitySubmissions.id))
    .limit(limit);
  return rows.map((r) => ({ row: r.row, key: String(r.key) }));
}

/** Decided (or superseded) before `before` whose images are still kept (the purge index). */
export function dueForPurge(db: DbOrTx, before: Date, limit: number): Promise<SubmissionRow[]> {
  return db
    .select()
    .from(identitySubmissions)
    .where(
      and(
        isNotNull(identitySubmissions.decidedAt),
        isNull(identitySubmissions.imagesDeletedAt),
        lt(identitySubmissions.decidedAt, before),
      ),
    )
    .orderBy(asc(identitySubmissions.decidedAt))
    .limit(limit);
}

/**
 * Of these media keys, those another submission of the user still needs: one not purged
 * that is pending or was decided at or after `before` (a resubmission may reuse an upload).
 */
export async function keysStillNeeded(
  db: DbOrTx,
  userId: number,
  keys: string[],
  before: Date,
): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db
    .select({ f: identitySubmissions.idFrontKey, s: identitySubmissions.idSelfieKey })
    .from(identitySubmissions)
    .where(
      and(
        eq(identitySubmissions.userId, userId),
        isNull(identitySubmissions.imagesDeletedAt),
        sql`(${identitySubmissions.decidedAt} is null or ${identitySubmissions.decidedAt} >= ${before.toISOString()}::timestamptz)`,
        sql`(${identitySubmissions.idFrontKey} in ${keys} or ${identitySubmissions.idSelfieKey} in ${keys})`,
      ),
    );
  return new Set(rows.flatMap((r) => [r.f, r.s]).filter((k) => keys.includes(k)));
}

export async function markImagesDeleted(db: DbOrTx, id: number, at: Date): Promise<void> {
  await db
    .update(identitySubmissions)
    .set({ imagesDeletedAt: at })
    .where(eq(identitySubmissions.id, id));
}
