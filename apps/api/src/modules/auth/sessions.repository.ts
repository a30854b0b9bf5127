import { and, eq, gt, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { sessions, users } from '../../db/schema';

export async function insertSession(
  db: DbOrTx,
  values: { userId: number; tokenHash: string; expiresAt: Date; now: Date },
): Promise<number> {
  const [row] = await db
    .insert(sessions)
    .values({
      userId: values.userId,
      tokenHash: values.tokenHash,
      expiresAt: values.expiresAt,
      createdAt: values.now,
      lastUsedAt: values.now,
    })
    .returning({ id: sessions.id });
  return row!.id;
}

export function findLiveSession(db: DbOrTx, tokenHash: string, now: Date) {
  return db
    .select({
      sessionId: sessions.id,
      userId: sessions.userId,
      lastUsedAt: sessions.lastUsedAt,
      role: users.role,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
    .limit(1)
    .then((r) => r[0]);
}

export async function touchSession(
  db: DbOrTx,
  id: number,
  now: Date,
  expiresAt: Date,
): Promise<void> {
  await db.update(sessions).set({ lastUsedAt: now, expiresAt }).where(eq(sessions.id, id));
}

export async function deleteSessionByHash(db: DbOrTx, tokenHash: string): Promise<boolean> {
  const rows = await db
    .delete(sessions)
    .where(eq(sessions.tokenHash, tokenHash))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Ends every session of the user except `keepId` (all when undefined). */
export async function deleteUserSessions(
  db: DbOrTx,
  userId: number,
  keepId?: number,
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      keepId === undefined
        ? eq(sessions.userId, userId)
        : and(eq(sessions.userId, userId), ne(sessions.id, keepId)),
    );
}
