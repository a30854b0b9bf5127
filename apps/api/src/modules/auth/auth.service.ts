import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import type { AuthAnswer } from '@bountyhunt/shared/auth';
import type { Actor, ServiceContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import { badRequest, forbidden } from '../../errors';
import type { AuditService } from '../admin/audit.service';
import { dummyPasswordHash, verifyPassword } from '../../lib/password';
import { hashToken, randomToken } from '../../lib/tokens';
import type { LiveService } from '../live/live.service';
import { SessionCache, type CachedSession, type Forget } from './session-cache';
import { findUserByEmail } from '../users/users.read';
import { presentUser } from '../users/users.present';
import {
  deleteSessionByHash,
  deleteUserSessions,
  findLiveSession,
  insertSession,
  isSessionLive,
  markSessionSecondFactor,
  touchSessions,
  type SessionTouch,
} from './sessions.repository';

/** A session lives 30 days past its last use. */
export const SESSION_IDLE_MS = 30 * 24 * 3600 * 1000;
/** Last-use writes are throttled so reads do not each write. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;
/** Uses of sessions are written this long after the first of a batch, or at TOUCH_BATCH. */
const TOUCH_DELAY_MS = 1000;
const TOUCH_BATCH = 500;

/** The session cache's messages between instances (LiveService.control). */
const SESSIONS_CONTROL = 'sessions';

export class AuthService {
  /** Sessions seen lately (SESSION_CACHE_MS), so a signed-in request costs no lookup. */
  readonly sessions: SessionCache;
  /** Uses of sessions waiting to be written, by session id (the last one of each). */
  private readonly touches = new Map<number, SessionTouch>();
  private touchTimer: NodeJS.Timeout | undefined;
  /** The writes of uses, one after the other. */
  private touchesWritten: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly audit: AuditService,
    /** Tells the other instances what their caches must forget (absent: one instance). */
    private readonly live?: LiveService,
  ) {
    this.sessions = new SessionCache(ctx.config.SESSION_CACHE_MS);
    live?.onControl(SESSIONS_CONTROL, {
      on: (data) => {
        const f = data as Forget;
        if (typeof f?.userId === 'number') this.sessions.forget(f);
      },
      gap: () => this.sessions.clear(),
    });
  }

  /** Forgets cached sessions here and, once `db`'s transaction commits, on every instance. */
  private async forget(change: Forget, db?: DbOrTx): Promise<void> {
    this.sessions.forget(change);
    await this.live?.control(SESSIONS_CONTROL, change, db);
  }

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
    const hash = hashToken(token);
    let cached = this.sessions.get(hash, now.getTime());
    if (!cached) {
      cached = await this.lookUpSession(hash, now);
      if (!cached) return null;
    } else if (this.sessions.refreshDue(hash)) {
      // Near the end of its time: answered from the cache, read again behind the answer.
      const lastUsedAt = cached.lastUsedAt;
      void this.lookUpSession(hash, now, lastUsedAt).then(
        (found) => {
          if (!found) this.sessions.drop(hash);
        },
        (err: unknown) =>
          this.ctx.log.warn(
            { err: { message: (err as Error).message } },
            'sessions: a read ahead of the cache time failed',
          ),
      );
    }
    if (now.getTime() - cached.lastUsedAt > TOUCH_EVERY_MS) {
      const expiresAt = new Date(now.getTime() + SESSION_IDLE_MS);
      this.touch({ sessionId: cached.actor.sessionId, at: now, expiresAt });
      this.sessions.touched(hash, now.getTime(), expiresAt.getTime());
    }
    return { ...cached.actor };
  }

  /**
   * The session of `hash` read from the database and kept in the cache, or undefined when there
   * is none. `lastUsedAt`: a use the cache already knows of and the database may not yet.
   */
  private async lookUpSession(
    hash: string,
    now: Date,
    lastUsedAt = 0,
  ): Promise<CachedSession | undefined> {
    const generation = this.sessions.generation();
    const session = await findLiveSession(this.ctx.db, hash, now);
    if (!session) return undefined;
    const found: CachedSession = {
      actor: {
        userId: session.userId,
        role: session.role,
        sessionId: session.sessionId,
        secondFactor: session.secondFactorAt !== null,
      },
      expiresAt: session.expiresAt.getTime(),
      lastUsedAt: Math.max(session.lastUsedAt.getTime(), lastUsedAt),
    };
    this.sessions.keep(hash, found, generation);
    return found;
  }

  /**
   * A session's use is written with the others of the same second, in one statement after the
   * answer (decision 0027): the request does not wait for a write, and sessions first used
   * together (a deploy, a burst of visitors) cost one update, not one each.
   */
  private touch(t: SessionTouch): void {
    this.touches.set(t.sessionId, t);
    if (this.touches.size >= TOUCH_BATCH) void this.flushTouches();
    else if (!this.touchTimer) {
      this.touchTimer = setTimeout(() => void this.flushTouches(), TOUCH_DELAY_MS);
      this.touchTimer.unref();
    }
  }

  /**
   * Writes the uses waiting (after TOUCH_DELAY_MS, at TOUCH_BATCH, and at shutdown). One that
   * fails is logged and dropped: the session keeps its stored expiry, and its next lookup from
   * the database (past SESSION_CACHE_MS, or on another instance) reads the old use and records
   * it again.
   */
  flushTouches(): Promise<void> {
    clearTimeout(this.touchTimer);
    this.touchTimer = undefined;
    if (this.touches.size > 0) {
      const batch = [...this.touches.values()];
      this.touches.clear();
      this.touchesWritten = this.touchesWritten
        .then(() => touchSessions(this.ctx.db, batch))
        .catch((err: unknown) =>
          this.ctx.log.warn({ err, sessions: batch.length }, 'session uses not recorded'),
        );
    }
    return this.touchesWritten;
  }

  /** A session still signs its user in (an open event stream checks now and then). */
  sessionAlive(sessionId: number, userId: number): Promise<boolean> {
    return isSessionLive(this.ctx.db, sessionId, userId, this.ctx.clock.now());
  }

  /** DELETE /auth/{token}: ends that session. Unknown tokens are a no-op, so logout never leaks whether a token existed. */
  async logout(token: string): Promise<void> {
    const gone = await deleteSessionByHash(this.ctx.db, hashToken(token));
    if (gone) await this.forget({ userId: gone.userId, sessionId: gone.id });
  }

  /** This session passed the admin second factor (TOTP or a recovery code). */
  async markSecondFactor(
    actor: Pick<Actor, 'userId' | 'sessionId'>,
    db: DbOrTx = this.ctx.db,
  ): Promise<void> {
    await markSessionSecondFactor(db, actor.sessionId, this.ctx.clock.now());
    await this.forget({ userId: actor.userId, sessionId: actor.sessionId }, db);
  }

  /** Ends every session of the user but `keepSessionId`; `db` lets a caller's transaction include it. */
  async endOtherSessions(
    userId: number,
    keepSessionId?: number,
    db: DbOrTx = this.ctx.db,
  ): Promise<void> {
    await deleteUserSessions(db, userId, keepSessionId);
    await this.forget(keepSessionId === undefined ? { userId } : { userId, keepSessionId }, db);
  }

  /**
   * The user's role or standing changed outside a session change (a role added): what is
   * cached of their sessions goes, here and on every instance once `db` commits.
   */
  userChanged(userId: number, db?: DbOrTx): Promise<void> {
    return this.forget({ userId }, db);
  }
}
