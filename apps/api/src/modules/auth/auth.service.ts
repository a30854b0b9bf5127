import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import type { AuthAnswer } from '@bountyhunt/shared/auth';
import type { Actor, ServiceContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import { badRequest, forbidden } from '../../errors';
import type { AuditService } from '../admin/audit.service';
import { dummyPasswordHash, verifyPassword } from '../../lib/password';
import { hashToken, randomToken } from '../../lib/tokens';
import { findUserByEmail } from '../users/users.read';
import { presentUser } from '../users/users.present';
import {
  deleteSessionByHash,
  deleteUserSessions,
  findLiveSession,
  insertSession,
  isSessionLive,
  markSessionSecondFactor,
  touchSession,
} from './sessions.repository';

/** A session lives 30 days past its last use. */
export const SESSION_IDLE_MS = 30 * 24 * 3600 * 1000;
/** Last-use writes are throttled so reads do not each write. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

export class AuthService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly audit: AuditService,
  ) {}

  /** Sign-in; a suspended account is refused (403 SUSPENDED), an admin's is audited. */
  async login(email: string, password: string, ip: string | null = null): Promise<AuthAnswer> {
    const user = await findUserByEmail(this.ctx.db, email.trim());
    const ok = user
      ? await verifyPassword(user.passwordHash, password)
      : (await verifyPassword(await dummyPasswordHash(), password), false);
    if (!user || !ok) throw badRequest(AUTH_MSG.loginInvalid, 'INVALID_CREDENTIALS');
    if (user.suspendedAt) throw forbidden(AUTH_MSG.suspended, 'SUSPENDED');
    const token = await this.createSession(user.id);
    if (hasRole(user.role, ROLE.admin))
      await this.audit.record({
        actorId: user.id,
        action: 'admin.sign_in',
        targetType: 'user',
        targetId: user.id,
        ip,
      });
    return { token, user: presentUser(user) };
  }

  async createSession(userId: number): Promise<string> {
    const now = this.ctx.clock.now();
    const token = randomToken(32);
    await insertSession(this.ctx.db, {
      userId,
      tokenHash: hashToken(token),
      now,
      expiresAt: new Date(now.getTime() + SESSION_IDLE_MS),
    });
    return token;
  }

  /** The actor behind a bearer token, or null when the token is unknown or expired. */
  async authenticate(token: string): Promise<Actor | null> {
    if (!token || token.length > 200) return null;
    const now = this.ctx.clock.now();
    const session = await findLiveSession(this.ctx.db, hashToken(token), now);
    if (!session) return null;
    if (now.getTime() - session.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
      await touchSession(
        this.ctx.db,
        session.sessionId,
        now,
        new Date(now.getTime() + SESSION_IDLE_MS),
      );
    }
    return {
      userId: session.userId,
      role: session.role,
      sessionId: session.sessionId,
      secondFactor: session.secondFactorAt !== null,
    };
  }

  /** A session still signs its user in (an open event stream checks now and then). */
  sessionAlive(sessionId: number, userId: number): Promise<boolean> {
    return isSessionLive(this.ctx.db, sessionId, userId, this.ctx.clock.now());
  }

  /** DELETE /auth/{token}: ends that session. Unknown tokens are a no-op, so logout never leaks whether a token existed. */
  async logout(token: string): Promise<void> {
    await deleteSessionByHash(this.ctx.db, hashToken(token));
  }

  /** This session passed the admin second factor (TOTP or a recovery code). */
  markSecondFactor(sessionId: number, db: DbOrTx = this.ctx.db): Promise<void> {
    return markSessionSecondFactor(db, sessionId, this.ctx.clock.now());
  }

  /** Ends every session of the user but `keepSessionId`; `db` lets a caller's transaction include it. */
  endOtherSessions(
    userId: number,
    keepSessionId?: number,
    db: DbOrTx = this.ctx.db,
  ): Promise<void> {
    return deleteUserSessions(db, userId, keepSessionId);
  }
}
