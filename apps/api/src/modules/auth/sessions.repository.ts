/** The sessions table (this module's); the role comes from users through users.read.ts's join. */
import { and, eq, gt, ne, sql } from 'drizzle-orm';
import { preparedQuery, type DbOrTx } from '../../db/client';
import { sessions } from '../../db/schema';
import { sessionUserJoin } from '../users/users.read';

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

const liveSessionStmt = preparedQuery('sessions_live', (db) =>
  db
    .select({
      sessionId: sessions.id,
      userId: sessions.userId,
      lastUsedAt: sessions.lastUsedAt,
      expiresAt: sessions.expiresAt,
      secondFactorAt: sessions.secondFactorAt,
      role: sessionUserJoin.role,
    })
    .from(sessions)
    .innerJoin(sessionUserJoin.table, sessionUserJoin.on(sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('hash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
        sessionUserJoin.notSuspended,
      ),
    )
    .limit(1),
);

/** Every authenticated request asks this: a prepared statement. */
export function findLiveSession(db: DbOrTx, tokenHash: string, now: Date) {
  return liveSessionStmt(db, { hash: tokenHash, now }).then((r) => r[0]);
}

export interface SessionTouch {
  sessionId: number;
  at: Date;
  expiresAt: Date;
}

/**
 * Records the use of sessions in one statement. Never moves a session back: another instance
 * may have written a later use meanwhile. Sessions ended meanwhile have no row to change.
 */
export async function touchSessions(db: DbOrTx, touches: SessionTouch[]): Promise<void> {
  if (touches.length === 0) return;
  await db.execute(sql`update sessions s
    set last_used_at = greatest(s.last_used_at, t.at), expires_at = greatest(s.expires_at, t.exp)
    from unnest(${sql.param(touches.map((x) => x.sessionId))}::int4[],
      ${sql.param(touches.map((x) => x.at.toISOString()))}::timestamptz[],
      ${sql.param(touches.map((x) => x.expiresAt.toISOString()))}::timestamptz[]) as t(id, at, exp)
    where s.id = t.id`);
}

/** The session ended, if there was one. */
export async function deleteSessionByHash(
  db: DbOrTx,
  tokenHash: string,
): Promise<{ id: number; userId: number } | undefined> {
  const rows = await db
    .delete(sessions)
    .where(eq(sessions.tokenHash, tokenHash))
    .returning({ id: sessions.id, userId: sessions.userId });
  return rows[0];
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

/** Marks the session as having passed the admin second factor. */
export async function markSessionSecondFactor(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db.update(sessions).set({ secondFactorAt: now }).where(eq(sessions.id, id));
}

/** A session by id that has not expired and whose user is not suspended (open event streams). */
export async function isSessionLive(
  db: DbOrTx,
  sessionId: number,
  userId: number,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(sessionUserJoin.table, sessionUserJoin.on(sessions.userId))
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.userId, userId),
        gt(sessions.expiresAt, now),
        sessionUserJoin.notSuspended,
      ),
    )
    .limit(1);
  return rows.length > 0;
}
