/**
 * The auth module's read interface: the sessions table is this module's. The admin console
 * lists a user's sessions (when made, last used), never their token hashes.
 */
import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { sessions } from '../../db/schema';

export interface SessionSummary {
  id: number;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  secondFactorAt: Date | null;
}

/** The user's sessions, most recently used first (sessions_user_idx). */
export function userSessions(db: DbOrTx, userId: number, limit: number): Promise<SessionSummary[]> {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
      expiresAt: sessions.expiresAt,
      secondFactorAt: sessions.secondFactorAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.id))
    .limit(limit);
}
