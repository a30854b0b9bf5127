/**
 * A user's own data (SPEC.md §2 Settings, §5, §7): handle, e-mail, password and its reset,
 * the hunter's public profile, tax and bank details (encrypted), identity documents.
 * Routes check the role; every method here takes the actor and validated input.
 */
import type { CurrentUser, User } from '@bountyhunt/shared/users';
import type { Hunter } from '@bountyhunt/shared/profiles';
import { AUTH_MSG, resetLink } from '@bountyhunt/shared/auth-texts';
import { ACCOUNT_MSG } from '@bountyhunt/shared/account';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import type { Actor, ServiceContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { badRequest, conflict, notAcceptable, notFound, unauthorized } from '../../errors';
import type { FieldCipher } from '../../lib/crypto';
import { hashPassword, verifyPassword } from '../../lib/password';
import { hashToken, randomToken } from '../../lib/tokens';
import { emailChangedMail, passwordChangedMail, passwordResetMail } from '../../mail/templates';
import type { MailMessage } from '../../mail/mailer';
import type { AuthService } from '../auth/auth.service';
import { getMedia } from '../media/media.service';
import { presentHunter, presentUser } from '../users/users.present';
import {
  findUserByEmail,
  findUserById,
  isEmailTakenByOther,
  isHandleTakenByOther,
  payoutColumnsOf,
} from '../users/users.read';
import type { PayoutRequirement } from '@bountyhunt/shared/payouts';
import type { DbOrTx } from '../../db/client';
import type { UsersService } from '../users/users.service';
import {
  consumeResetCode,
  purgeResetCodes,
  insertResetCode,
  retireResetCodes,
} from './account.repository';

/** A reset link works for one hour (and once). */
export const RESET_CODE_TTL_MS = 3600 * 1000;

/**
 * A hunter as the payouts module sees them: what is missing before payouts can start, and the
 * tax and bank details of the file and the form. The account number stays encrypted here; only
 * `decryptBankAccount`, called by the NACHA file writer, turns it back into digits.
 */
export interface PayoutProfile {
  userId: number;
  email: string;
  handle: string | null;
  legalName: string | null;
  street: string | null;
  cityStateZip: string | null;
  ssnLastFour: string | null;
  missing: PayoutRequirement[];
  bank: {
    routingNumber: string;
    accountType: 'checking' | 'savings';
    lastFour: string;
    accountEnc: string;
  } | null;
}

export class AccountService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly cipher: FieldCipher,
    private readonly users: UsersService,
    private readonly auth: AuthService,
  ) {}

  private async user(actor: Actor) {
    const row = await findUserById(this.ctx.db, actor.userId);
    if (!row) throw unauthorized();
    return row;
  }

  /** Mail that only informs (not the reset link) must not fail the change that caused it. */
  private async notify(message: MailMessage): Promise<void> {
    try {
      await this.ctx.mailer.send(message);
    } catch (err) {
      this.ctx.log.warn({ err: { message: (err as Error).message } }, 'notification mail failed');
    }
  }

  /** PUT /user/handle: 409 when another user has it (case-insensitively). */
  async setHandle(actor: Actor, handle: string): Promise<CurrentUser> {
    const me = await this.user(actor);
    if (await isHandleTakenByOther(this.ctx.db, handle, me.id))
      throw conflict(ACCOUNT_MSG.handleTaken, 'HANDLE_TAKEN');
    let row;
    try {
      row = await this.users.update(me.id, { handle });
    } catch (err) {
      // Two users racing for one handle: the unique index decides.
      if (isUniqueViolation(err)) throw conflict(ACCOUNT_MSG.handleTaken, 'HANDLE_TAKEN');
      throw err;
    }
    this.users.cardChanged();
    const hunter = hasRole(row.role, ROLE.hunter) ? await this.users.ensureHunter(row.id) : null;
    return {
      user: presentUser(row),
      hunter: hunter ? presentHunter(hunter, row.handle) : null,
    };
  }

  /** PUT /user/email/{email}: 406 when another account uses it. */
  async setEmail(actor: Actor, email: string): Promise<User> {
    const me = await this.user(actor);
    const next = email.trim().toLowerCase();
    if (next === me.email.toLowerCase()) return presentUser(me);
    if (await isEmailTakenByOther(this.ctx.db, next, me.id))
      throw notAcceptable(ACCOUNT_MSG.emailChangeTaken, 'EMAIL_EXISTS');
    let row;
    try {
      row = await this.users.update(me.id, { email: next });
    } catch (err) {
      if (isUniqueViolation(err)) throw notAcceptable(ACCOUNT_MSG.emailChangeTaken, 'EMAIL_EXISTS');
      throw err;
    }
    await this.notify(emailChangedMail(me.email, next));
    return presentUser(row);
  }

  /** PUT /user/password: 400 on a wrong current password; other sessions end. */
  async changePassword(actor: Actor, oldPassword: string, newPassword: string): Promise<void> {
    const me = await this.user(actor);
    if (!(await verifyPassword(me.passwordHash, oldPassword)))
      throw badRequest(ACCOUNT_MSG.passwordWrong, 'WRONG_PASSWORD');
    const passwordHash = await hashPassword(newPassword);
    await this.ctx.db.transaction(async (tx) => {
      await this.users.update(me.id, { passwordHash }, tx);
      await this.auth.endOtherSessions(me.id, actor.sessionId, tx);
      await retireResetCodes(tx, me.id, this.ctx.clock.now());
    });
    await this.notify(passwordChangedMail(me.email));
  }

  /**
   * POST /email/password/{email}: 404 for an unknown address (SPEC.md §7/§8), otherwise a
   * single-use code valid for an hour, stored only as its hash, mailed as a link.
   */
  async requestPasswordReset(email: string): Promise<void> {
    const user = await findUserByEmail(this.ctx.db, email.trim());
    if (!user) throw notFound(AUTH_MSG.resetNotFound, 'EMAIL_NOT_FOUND');
    await this.ctx.mailer.send(passwordResetMail(user.email, await this.createResetLink(user.id)));
  }

  /** The admin console's resend: the same reset mail, to the user's address; 404 unknown user. */
  async sendResetMail(userId: number): Promise<void> {
    const user = await findUserById(this.ctx.db, userId);
    if (!user) throw notFound();
    await this.ctx.mailer.send(passwordResetMail(user.email, await this.createResetLink(user.id)));
  }

  /**
   * A single-use password-set link (the reset machinery), valid for RESET_CODE_TTL_MS; the
   * admin CLI prints it for a user it created with an unusable password.
   */
  async createResetLink(userId: number): Promise<string> {
    const now = this.ctx.clock.now();
    const code = randomToken(32);
    await insertResetCode(this.ctx.db, {
      userId,
      codeHash: hashToken(code),
      expiresAt: new Date(now.getTime() + RESET_CODE_TTL_MS),
      now,
    });
    return resetLink(this.ctx.config.PUBLIC_WEB_URL, code);
  }

  /** PUT /user/reset: 400 for an unknown, used or expired code; every session ends. */
  async resetPassword(resetCode: string, newPassword: string): Promise<void> {
    const passwordHash = await hashPassword(newPassword);
    const now = this.ctx.clock.now();
    const email = await this.ctx.db.transaction(async (tx) => {
      const userId = await consumeResetCode(tx, hashToken(resetCode), now);
      if (userId === undefined) return undefined;
      const row = await this.users.update(userId, { passwordHash }, tx);
      await this.auth.endOtherSessions(userId, undefined, tx);
      await retireResetCodes(tx, userId, now);
      return row.email;
    });
    if (email === undefined) throw badRequest(AUTH_MSG.resetCodeInvalid, 'RESET_CODE_INVALID');
    await this.notify(passwordChangedMail(email));
  }

  async setBio(actor: Actor, bio: string | null): Promise<Hunter> {
    const me = await this.user(actor);
    return presentHunter(await this.users.updateHunter(me.id, { bio }), me.handle);
  }

  async setStagename(actor: Actor, stagename: string | null): Promise<Hunter> {
    const me = await this.user(actor);
    return presentHunter(await this.users.updateHunter(me.id, { stagename }), me.handle);
  }

  /** A media key is usable when it exists, belongs to the user and is a finished image. */
  private async ownImage(
    actor: Actor,
    key: string,
    visibility: 'public' | 'private',
    message: string,
  ) {
    const row = await getMedia(this.ctx, key);
    if (!row || row.ownerId !== actor.userId || row.kind !== 'image' || row.status !== 'ready')
      throw badRequest(message, 'MEDIA_INVALID');
    if (row.visibility !== visibility)
      throw badRequest(
        visibility === 'private'
          ? 'Identity documents must be uploaded privately.'
          : 'A profile picture must be a public image.',
        'MEDIA_VISIBILITY',
      );
  }

  /** PUT /hunter/picture {picture: key} */
  async setPicture(actor: Actor, key: string): Promise<Hunter> {
    const me = await this.user(actor);
    await this.ownImage(actor, key, 'public', ACCOUNT_MSG.pictureRequired);
    return presentHunter(await this.users.updateHunter(me.id, { picture: key }), me.handle);
  }

  async setName(actor: Actor, firstName: string, lastName: string): Promise<User> {
    return presentUser(await this.users.update(actor.userId, { firstName, lastName }));
  }

  async setAddress(
    actor: Actor,
    a: { street: string; city: string; state: string; zip: string },
  ): Promise<User> {
    return presentUser(await this.users.update(actor.userId, a));
  }

  /** Payout eligibility and details of these users (the payouts module), by user id. */
  async payoutProfiles(db: DbOrTx, userIds: number[]): Promise<Map<number, PayoutProfile>> {
    const rows = await payoutColumnsOf(db, userIds);
    return new Map(
      rows.map((r) => {
        const legalName = r.firstName && r.lastName ? `${r.firstName} ${r.lastName}` : null;
        const hasAddress = Boolean(r.street && r.city && r.state && r.zip);
        const bank =
          r.bankRoutingNumber && r.bankAccountEnc && r.bankAccountLastFour
            ? {
                routingNumber: r.bankRoutingNumber,
                accountType: (r.bankAccountType === 'savings' ? 'savings' : 'checking') as
                  'checking' | 'savings',
                lastFour: r.bankAccountLastFour,
                accountEnc: r.bankAccountEnc,
              }
            : null;
        const missing: PayoutRequirement[] = [];
        if (r.identityStatus !== 'approved') missing.push('identity');
        if (!legalName) missing.push('name');
        if (!hasAddress) missing.push('address');
        if (!r.ssnEnc) missing.push('ssn');
        if (!bank) missing.push('bank');
        return [
          r.id,
          {
            userId: r.id,
            email: r.email,
            handle: r.handle,
            legalName,
            street: r.street,
            cityStateZip: hasAddress ? `${r.city}, ${r.state} ${r.zip}` : null,
            ssnLastFour: r.ssnLastFour,
            missing,
            bank,
          },
        ];
      }),
    );
  }

  /** The full bank account number, for the NACHA file writer only (never logged or answered). */
  decryptBankAccount(accountEnc: string): string {
    return this.cipher.decrypt(accountEnc);
  }

  /** PUT /user/ssn/{ssn}: stored encrypted; only the last four ever leave. */
  async setSsn(actor: Actor, ssn: string): Promise<User> {
    return presentUser(
      await this.users.update(actor.userId, {
        ssnEnc: this.cipher.encrypt(ssn),
        ssnLastFour: ssn.slice(-4),
      }),
    );
  }

  /** PUT /user/bank: the account number is stored encrypted; only the last four leave. */
  async setBank(
    actor: Actor,
    b: {
      name: string;
      accountType: 'checking' | 'savings';
      routingNumber: string;
      accountNumber: string;
    },
  ): Promise<User> {
    return presentUser(
      await this.users.update(actor.userId, {
        bankName: b.name,
        bankAccountType: b.accountType,
        bankRoutingNumber: b.routingNumber,
        bankAccountEnc: this.cipher.encrypt(b.accountNumber),
        bankAccountLastFour: b.accountNumber.slice(-4),
      }),
    );
  }

  /**
   * Re-encrypts SSNs and bank account numbers made with an earlier key (ENCRYPTION_KEY_PREVIOUS)
   * under the current ENCRYPTION_KEY, in batches. Returns how many users were rewritten.
   */
  async reencryptStale(batch = 200): Promise<number> {
    const { cipher, ctx } = this;
    let done = 0;
    let skipped = new Set<number>();
    for (;;) {
      const rows = (
        await this.users.findStaleCiphertexts(cipher.currentKeyId, batch + skipped.size)
      ).filter((r) => !skipped.has(r.id));
      if (rows.length === 0) return done;
      for (const row of rows) {
        try {
          const next = {
            ssnEnc:
              row.ssnEnc && cipher.isStale(row.ssnEnc)
                ? cipher.encrypt(cipher.decrypt(row.ssnEnc))
                : row.ssnEnc,
            bankAccountEnc:
              row.bankAccountEnc && cipher.isStale(row.bankAccountEnc)
                ? cipher.encrypt(cipher.decrypt(row.bankAccountEnc))
                : row.bankAccountEnc,
          };
          if (await this.users.replaceCiphertexts(row.id, row, next)) done += 1;
        } catch (err) {
          // A key that is no longer configured: leave the row, say so, go on with the others.
          ctx.log.error(
            { userId: row.id, err: { message: (err as Error).message } },
            're-encryption failed',
          );
          skipped = new Set([...skipped, row.id]);
        }
      }
    }
  }

  /** Reset codes older than a day are of no use to anyone: removed hourly. */
  async purgeOldResetCodes(): Promise<number> {
    const before = new Date(this.ctx.clock.now().getTime() - 24 * 3600 * 1000);
    return purgeResetCodes(this.ctx.db, before);
  }
}
