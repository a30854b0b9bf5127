/**
 * Bounties and their rounds: the bounties and rounds tables (this module's, with claims and
 * votes in claims.repository.ts and votes.repository.ts, and the feed search in
 * search.repository.ts). Reads that shape answers use SQL written for the indexes of
 * db/schema/bounties.ts (see bench/explain-bounties.ts).
 */
import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import { preparedQuery, type DbOrTx } from '../../db/client';
import { bounties, rounds } from '../../db/schema';

export type BountyRow = typeof bounties.$inferSelect;
export type RoundRow = typeof rounds.$inferSelect;

export async function insertBounty(
  tx: DbOrTx,
  values: { userId: number; title: string; amount: number; mediaType: number; createdAt: Date },
): Promise<BountyRow> {
  const [row] = await tx.insert(bounties).values(values).returning();
  return row!;
}

export async function insertRound(
  tx: DbOrTx,
  values: { bountyId: number; number: number; endDate: Date; createdAt: Date },
): Promise<RoundRow> {
  const [row] = await tx.insert(rounds).values(values).returning();
  return row!;
}

const bountyByIdStmt = preparedQuery('bounties_by_id', (db) =>
  db
    .select()
    .from(bounties)
    .where(eq(bounties.id, sql.placeholder('id')))
    .limit(1),
);

export function findBounty(
  db: DbOrTx,
  id: number,
  lock?: 'no key update',
): Promise<BountyRow | undefined> {
  if (!lock) return bountyByIdStmt(db, { id }).then((r) => r[0]);
  return db
    .select()
    .from(bounties)
    .where(eq(bounties.id, id))
    .limit(1)
    .for(lock)
    .then((r) => r[0]);
}

export function findRound(
  db: DbOrTx,
  bountyId: number,
  number: number,
  lock?: 'update' | 'share',
): Promise<RoundRow | undefined> {
  const q = db
    .select()
    .from(rounds)
    .where(and(eq(rounds.bountyId, bountyId), eq(rounds.number, number)))
    .limit(1);
  return (lock ? q.for(lock) : q).then((r) => r[0]);
}

export async function updateBounty(
  tx: DbOrTx,
  id: number,
  values: Partial<Omit<BountyRow, 'id' | 'search'>>,
): Promise<BountyRow> {
  const [row] = await tx.update(bounties).set(values).where(eq(bounties.id, id)).returning();
  return row!;
}

/** Rounds past their end and not yet closed, oldest end first (rounds_open_end_idx). */
export function dueRounds(db: DbOrTx, now: Date, limit: number): Promise<RoundRow[]> {
  return db
    .select()
    .from(rounds)
    .where(and(isNull(rounds.closedAt), lt(rounds.endDate, now)))
    .orderBy(asc(rounds.endDate))
    .limit(limit);
}

export async function closeRound(tx: DbOrTx, roundRowId: number, now: Date): Promise<boolean> {
  const rows = await tx
    .update(rounds)
    .set({ closedAt: now })
    .where(and(eq(rounds.id, roundRowId), isNull(rounds.closedAt)))
    .returning({ id: rounds.id });
  return rows.length > 0;
}

export function lockRoundById(tx: DbOrTx, id: number): Promise<RoundRow | undefined> {
  return tx
    .select()
    .from(rounds)
    .where(eq(rounds.id, id))
    .for('update')
    .then((r) => r[0]);
}

/** Hides (a time) or shows (null) a bounty; hidden_at before and after, undefined when unknown. */
export async function setBountyHiddenAt(
  db: DbOrTx,
  id: number,
  at: Date | null,
): Promise<{ before: Date | null; after: Date | null } | undefined> {
  const [old] = await db
    .select({ hiddenAt: bounties.hiddenAt })
    .from(bounties)
    .where(eq(bounties.id, id))
    .for('update');
  if (!old) return undefined;
  const after = at ? (old.hiddenAt ?? at) : null;
  await db.update(bounties).set({ hiddenAt: after }).where(eq(bounties.id, id));
  return { before: old.hiddenAt, after };
}

/** What the moderation queue shows of bounties: title, poster, first claim's media. */
export function bountyPreviews(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: bounties.id,
      title: bounties.title,
      userId: bounties.userId,
      hiddenAt: bounties.hiddenAt,
    })
    .from(bounties)
    .where(sql`${bounties.id} in ${ids}`);
}
