/**
 * The admin console's users (issue 17 part 4): search, a user's page, suspension, silver
 * grants and mail resends. It owns no table: it composes the owners' services and read
 * interfaces (users, auth's sessions, billing's silver, bounties' votes and claims, profiles'
 * posts) and records every action in the audit log inside the transaction of the change.
 */
import {
  ADMIN_USERS_CODES,
  ADMIN_USERS_MSG,
  type AdminUserDetail,
  type AdminUserRow,
  type AdminUsersQuery,
  type GrantSilverValues,
  type ResendMailInput,
} from '@bountyhunt/shared/admin-users';
import { ADMIN_PAGE } from '@bountyhunt/shared/admin';
import { endingIn, maskSsn } from '@bountyhunt/shared/format';
import { z } from 'zod';
import type { Actor, ServiceContext } from '../../context';
import { badRequest, conflict, notFound } from '../../errors';
import { iso, isoOrNull } from '../../lib/dates';
import { decodeCursor, pageLimit, takePage, type Page } from '../../lib/paging';
import type { AccountService } from '../account/account.service';
import { userSessions } from '../auth/auth.read';
import type { AuthService } from '../auth/auth.service';
import { paymentsOf } from '../billing/billing.read';
import { grantSilver, silverHistory } from '../billing/silver.service';
import { recentClaimsOf, recentVotesOf } from '../bounties/bounties.read';
import { recordSilverGrant } from '../payouts/ledger.service';
import { recentPostsOf } from '../profiles/profiles.read';
import {
  findHunterByUserId,
  findUserById,
  lockUser,
  searchUsers,
  type UserRow,
} from '../users/users.read';
import type { UsersService } from '../users/users.service';
import type { AuditService } from './audit.service';

/** How many of each list the user's page shows. */
const RECENT = 10;

const cursorSchema = z.object({ id: z.number().int().min(1).max(2_147_483_647) });
const invalidCursor = () => badRequest(ADMIN_USERS_MSG.invalidCursor, 'INVALID_CURSOR');
const userNotFound = () => notFound(ADMIN_USERS_MSG.notFound, 'USER_NOT_FOUND');

function presentRow(row: UserRow): AdminUserRow {
  return {
    userId: row.id,
    email: row.email,
    handle: row.handle,
    role: row.role,
    silver: row.silver,
    membership: row.membership,
    active: isoOrNull(row.active),
    identityStatus: row.identityStatus,
    suspended: isoOrNull(row.suspendedAt),
    created: iso(row.createdAt),
  };
}

export class AdminUsersService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly users: UsersService,
    private readonly auth: AuthService,
    private readonly account: AccountService,
    private readonly audit: AuditService,
  ) {}

  /** GET /admin/users: by id, e-mail or handle prefix; newest first, keyset by id. */
  async list(query: AdminUsersQuery): Promise<Page<AdminUserRow>> {
    const limit = pageLimit(query.limit, ADMIN_PAGE);
    const after = decodeCursor(query.cursor, cursorSchema, invalidCursor);
    const rows = await searchUsers(this.ctx.db, {
      q: query.q || undefined,
      beforeId: after?.id,
      limit: limit + 1,
    });
    const page = takePage(rows, limit, (last) => ({ id: last.id }));
    return { items: page.rows.map(presentRow), next: page.next };
  }

  /** GET /admin/users/{userId} */
  async detail(userId: number): Promise<AdminUserDetail> {
    const db = this.ctx.db;
    const row = await findUserById(db, userId);
    if (!row) throw userNotFound();
    const hunter = await findHunterByUserId(db, userId);
    const [sessions, votes, claims, posts, silver, payments] = await Promise.all([
      userSessions(db, userId, RECENT),
      recentVotesOf(db, userId, RECENT),
      hunter ? recentClaimsOf(db, hunter.id, RECENT) : [],
      hunter ? recentPostsOf(db, hunter.id, RECENT) : [],
      silverHistory(db, userId, { limit: RECENT }),
      paymentsOf(db, userId),
    ]);
    const legalName = !!(row.firstName && row.lastName);
    const address = !!(row.street && row.city && row.state && row.zip);
    const ssn = maskSsn(row.ssnLastFour);
    const bankComplete = !!(row.bankName && row.bankRoutingNumber && row.bankAccountLastFour);
    return {
      ...presentRow(row),
      votes: row.votes,
      identityReason: row.identityReason,
      hunterId: hunter?.id ?? null,
      tax: { legalName, address, ssn, complete: legalName && address && ssn !== null },
      bank: {
        name: row.bankName,
        accountType: row.bankAccountType,
        routingNumber: !!row.bankRoutingNumber,
        account: endingIn(row.bankAccountLastFour),
        complete: bankComplete,
      },
      card: endingIn(row.cardLastFour),
      sessions: sessions.map((s) => ({
        sessionId: s.id,
        created: iso(s.createdAt),
        lastUsed: iso(s.lastUsedAt),
        expires: iso(s.expiresAt),
        secondFactor: s.secondFactorAt !== null,
      })),
      recentVotes: votes.map((v) => ({
        voteId: v.id,
        claimId: v.claimId,
        bountyId: v.bountyId,
        bountyTitle: v.bountyTitle,
        value: v.value,
        created: iso(v.createdAt),
      })),
      claims: claims.map((c) => ({
        claimId: c.id,
        bountyId: c.bountyId,
        bountyTitle: c.bountyTitle,
        roundId: c.roundNumber,
        media: c.media,
        votes: c.votes,
        hidden: c.hiddenAt !== null,
        created: iso(c.createdAt),
      })),
      posts: posts.map((p) => ({
        postId: p.id,
        file: p.file,
        text: p.text,
        hidden: p.hiddenAt !== null,
        created: iso(p.createdAt),
      })),
      silverHistory: silver.history.map((h) => ({
        id: h.id,
        delta: h.delta,
        balanceAfter: h.balanceAfter,
        reason: h.reason,
        created: h.created,
      })),
      payments,
    };
  }

  /**
   * POST /admin/users/{userId}/suspend: sign-in answers 403 SUSPENDED from now on and every
   * session ends in the same transaction (their tokens answer 401 at once). Not one's own.
   */
  async suspend(actor: Actor, userId: number, reason: string, ip: string | null): Promise<void> {
    if (userId === actor.userId)
      throw badRequest(ADMIN_USERS_MSG.suspendSelf, ADMIN_USERS_CODES.suspendSelf);
    const now = this.ctx.clock.now();
    await this.ctx.db.transaction(async (tx) => {
      const before = await lockUser(tx, userId);
      if (!before) throw userNotFound();
      if (before.suspendedAt)
        throw conflict(ADMIN_USERS_MSG.alreadySuspended, ADMIN_USERS_CODES.alreadySuspended);
      await this.users.update(userId, { suspendedAt: now }, tx);
      await this.auth.endOtherSessions(userId, undefined, tx);
      await this.audit.record(
        {
          actorId: actor.userId,
          action: 'user.suspend',
          targetType: 'user',
          targetId: userId,
          before: { suspendedAt: null },
          after: { suspendedAt: now.toISOString(), reason },
          ip,
        },
        tx,
      );
    });
    this.users.cardChanged();
  }

  /** POST /admin/users/{userId}/unsuspend: sign-in works again (old sessions stay ended). */
  async unsuspend(actor: Actor, userId: number, ip: string | null): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const before = await lockUser(tx, userId);
      if (!before) throw userNotFound();
      if (!before.suspendedAt)
        throw conflict(ADMIN_USERS_MSG.notSuspended, ADMIN_USERS_CODES.notSuspended);
      await this.users.update(userId, { suspendedAt: null }, tx);
      await this.audit.record(
        {
          actorId: actor.userId,
          action: 'user.unsuspend',
          targetType: 'user',
          targetId: userId,
          before: { suspendedAt: before.suspendedAt.toISOString() },
          after: { suspendedAt: null },
          ip,
        },
        tx,
      );
    });
    this.users.cardChanged();
  }

  /**
   * POST /admin/users/{userId}/silver: a credit through billing's silver service (ledger
   * reason `admin_grant`, which the member's history shows) and its audit row, together.
   */
  async grantSilver(
    actor: Actor,
    userId: number,
    input: GrantSilverValues,
    ip: string | null,
  ): Promise<{ silver: number }> {
    const now = this.ctx.clock.now();
    const granted = await this.ctx.db.transaction(async (tx) => {
      const user = await findUserById(tx, userId);
      if (!user) throw userNotFound();
      const silver = await grantSilver(tx, userId, input.amount, { at: now });
      await recordSilverGrant(tx, {
        userId,
        silver: input.amount,
        planIndex: user.membership,
        at: now,
      });
      await this.audit.record(
        {
          actorId: actor.userId,
          action: 'user.grant_silver',
          targetType: 'user',
          targetId: userId,
          before: { silver: silver - input.amount },
          after: { silver, amount: input.amount, reason: input.reason },
          ip,
        },
        tx,
      );
      return { silver };
    });
    this.users.changed([userId]);
    return granted;
  }

  /** POST /admin/users/{userId}/mail: sends the mail again, then records that it did. */
  async resendMail(
    actor: Actor,
    userId: number,
    input: ResendMailInput,
    ip: string | null,
  ): Promise<void> {
    if (!(await findUserById(this.ctx.db, userId))) throw userNotFound();
    if (input.kind === 'reset') await this.account.sendResetMail(userId);
    await this.audit.record({
      actorId: actor.userId,
      action: 'user.resend_mail',
      targetType: 'user',
      targetId: userId,
      after: { kind: input.kind },
      ip,
    });
  }
}
