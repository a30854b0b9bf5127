/**
 * The admin role (role bit 4) and its TOTP second factor (RFC 6238, CONTRACT.md "Operations"):
 * the gate every /admin endpoint passes, enrolment with recovery codes, verification per
 * session, and the operations entry point that grants the role (the admin CLI, the seed).
 */
import crypto from 'node:crypto';
import type { Secret, TOTP } from 'otpauth';
import {
  ADMIN_CODES,
  ADMIN_MSG,
  RECOVERY_CODE_COUNT,
  type AdminMeAnswer,
  type TotpEnrolAnswer,
  type TotpStatusAnswer,
  type TotpVerifyInput,
} from '@bountyhunt/shared/admin';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import type { Actor, ServiceContext } from '../../context';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../errors';
import type { FieldCipher } from '../../lib/crypto';
import { lazyImport } from '../../lib/lazy-import';
import { hashPassword } from '../../lib/password';
import { hashToken, randomToken } from '../../lib/tokens';
import type { AccountService } from '../account/account.service';
import type { AuthService } from '../auth/auth.service';
import type { AuditService } from './audit.service';
import type { UsersService } from '../users/users.service';
import {
  acceptStep,
  deleteFactor,
  findFactor,
  replacePendingFactor,
  useRecoveryCode,
} from './admin.repository';

// The TOTP and QR code packages load with the first admin sign-in, not at start-up (0038).
const loadOtpauth = lazyImport(() => import('otpauth'));
const loadQrcode = lazyImport(() => import('qrcode'));

const ISSUER = 'BountyHunt';
const PERIOD_S = 30;
/** Codes of the neighbouring time steps are accepted too (clock drift). */
const WINDOW = 1;

export class UnknownUserError extends Error {}

export class AdminService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly cipher: FieldCipher,
    private readonly users: UsersService,
    private readonly auth: AuthService,
    private readonly account: AccountService,
    private readonly audit: AuditService,
  ) {}

  /**
   * The /admin gate: 401 anonymous, 403 without the admin bit, 403 SECOND_FACTOR_REQUIRED for
   * an admin session that has not passed TOTP (unless `secondFactor: false`, for the
   * enrol/confirm/verify calls themselves).
   */
  gate(actor: Actor | null, opts: { secondFactor: boolean } = { secondFactor: true }): Actor {
    if (!actor) throw unauthorized();
    if (!hasRole(actor.role, ROLE.admin)) throw forbidden();
    if (opts.secondFactor && !actor.secondFactor)
      throw forbidden(ADMIN_MSG.secondFactorRequired, ADMIN_CODES.secondFactorRequired);
    return actor;
  }

  /** POST /admin/totp/enrol: a new pending secret and ten recovery codes, shown once. */
  async enrol(actor: Actor): Promise<TotpEnrolAnswer> {
    const existing = await findFactor(this.ctx.db, actor.userId);
    if (existing?.enrolledAt)
      throw conflict(ADMIN_MSG.alreadyEnrolled, ADMIN_CODES.alreadyEnrolled);
    const me = await this.users.current(actor);
    const { Secret, TOTP } = await loadOtpauth();
    const secret = new Secret({ size: 20 });
    const totp = this.totp(TOTP, secret, me.user.email);
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, () => recoveryCode());
    await this.ctx.db.transaction((tx) =>
      replacePendingFactor(tx, {
        userId: actor.userId,
        secretEnc: this.cipher.encrypt(secret.base32),
        codeHashes: recoveryCodes.map(hashRecoveryCode),
        now: this.ctx.clock.now(),
      }),
    );
    // A confirmed factor in between (another session) is never replaced.
    const after = await findFactor(this.ctx.db, actor.userId);
    if (after?.enrolledAt) throw conflict(ADMIN_MSG.alreadyEnrolled, ADMIN_CODES.alreadyEnrolled);
    const otpauthUrl = totp.toString();
    const QRCode = (await loadQrcode()).default;
    const qr = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2 });
    return { otpauthUrl, qr, recoveryCodes };
  }

  /** POST /admin/totp/confirm: the first valid code ends enrolment and passes this session. */
  async confirm(actor: Actor, code: string, ip: string | null = null): Promise<void> {
    const factor = await findFactor(this.ctx.db, actor.userId);
    if (!factor) throw badRequest(ADMIN_MSG.notEnrolled, ADMIN_CODES.notEnrolled);
    if (factor.enrolledAt) throw conflict(ADMIN_MSG.alreadyEnrolled, ADMIN_CODES.alreadyEnrolled);
    await this.acceptCode(actor, factor.secretEnc, code, true, ip);
  }

  /** GET /admin/totp/status: whether to ask for a code or to enrol (no second factor needed). */
  async status(actor: Actor): Promise<TotpStatusAnswer> {
    const factor = await findFactor(this.ctx.db, actor.userId);
    return { enrolled: !!factor?.enrolledAt, secondFactor: !!actor.secondFactor };
  }

  /** POST /admin/totp/verify: a current code, or an unused recovery code (once). */
  async verify(actor: Actor, input: TotpVerifyInput, ip: string | null = null): Promise<void> {
    const factor = await findFactor(this.ctx.db, actor.userId);
    if (!factor?.enrolledAt) throw badRequest(ADMIN_MSG.notEnrolled, ADMIN_CODES.notEnrolled);
    if ('code' in input) {
      await this.acceptCode(actor, factor.secretEnc, input.code, false, ip);
      return;
    }
    const now = this.ctx.clock.now();
    await this.ctx.db.transaction(async (tx) => {
      const ok = await useRecoveryCode(tx, actor.userId, hashRecoveryCode(input.recoveryCode), now);
      if (!ok) throw badRequest(ADMIN_MSG.codeInvalid, ADMIN_CODES.codeInvalid);
      await this.auth.markSecondFactor(actor, tx);
      await this.audit.record(
        {
          actorId: actor.userId,
          action: 'admin.recovery_code_used',
          targetType: 'user',
          targetId: actor.userId,
          ip,
        },
        tx,
      );
    });
  }

  /** GET /admin/me */
  async me(actor: Actor): Promise<AdminMeAnswer> {
    const me = await this.users.current(actor);
    return { userId: me.user.userId, email: me.user.email, secondFactor: true };
  }

  /**
   * The admin CLI and the demo seed: adds the admin bit to an existing user, or with `create`
   * makes the user with a random password nobody knows and returns a one-time password-set
   * link (the password-reset machinery). Throws UnknownUserError without `create`.
   */
  async grantAdmin(
    email: string,
    opts: { create?: boolean } = {},
  ): Promise<{ userId: number; email: string; created: boolean; setPasswordLink?: string }> {
    const existing = await this.users.findByEmail(email);
    if (existing) {
      const row = await this.users.addRole(existing.id, ROLE.admin);
      if (!row) throw notFound();
      await this.auth.userChanged(row.id);
      await this.audit.record({
        actorId: null,
        action: 'admin.granted',
        targetType: 'user',
        targetId: row.id,
        before: { role: existing.role },
        after: { role: row.role },
      });
      return { userId: row.id, email: row.email, created: false };
    }
    if (!opts.create) throw new UnknownUserError(`No user with the e-mail ${email.trim()}.`);
    const row = await this.users.createWithRole(
      email,
      await hashPassword(randomToken(32)),
      ROLE.admin,
    );
    const setPasswordLink = await this.account.createResetLink(row.id);
    await this.audit.record({
      actorId: null,
      action: 'admin.granted',
      targetType: 'user',
      targetId: row.id,
      after: { role: row.role, created: true },
    });
    return { userId: row.id, email: row.email, created: true, setPasswordLink };
  }

  /**
   * `npm run admin -- --email x@y --reset-factor`, for an admin who lost both the phone and the
   * recovery codes: the authenticator and codes go, every session of theirs ends, and the next
   * sign-in sets up a new authenticator. Throws UnknownUserError for an unknown e-mail.
   */
  async resetFactor(email: string): Promise<{ userId: number; email: string; hadFactor: boolean }> {
    const user = await this.users.findByEmail(email);
    if (!user || !hasRole(user.role, ROLE.admin))
      throw new UnknownUserError(`No admin with the e-mail ${email.trim()}.`);
    const hadFactor = await this.ctx.db.transaction(async (tx) => {
      const had = await deleteFactor(tx, user.id);
      await this.auth.endOtherSessions(user.id, undefined, tx);
      await this.audit.record(
        { actorId: null, action: 'admin.factor_reset', targetType: 'user', targetId: user.id },
        tx,
      );
      return had;
    });
    return { userId: user.id, email: user.email, hadFactor };
  }

  private totp(Totp: typeof TOTP, secret: Secret, label: string): TOTP {
    return new Totp({
      issuer: ISSUER,
      label,
      algorithm: 'SHA1',
      digits: 6,
      period: PERIOD_S,
      secret,
    });
  }

  private async acceptCode(
    actor: Actor,
    secretEnc: string,
    code: string,
    confirm: boolean,
    ip: string | null,
  ): Promise<void> {
    const now = this.ctx.clock.now();
    const { Secret, TOTP } = await loadOtpauth();
    const totp = this.totp(
      TOTP,
      Secret.fromBase32(this.cipher.decrypt(secretEnc)),
      String(actor.userId),
    );
    const delta = totp.validate({ token: code, timestamp: now.getTime(), window: WINDOW });
    if (delta === null) throw badRequest(ADMIN_MSG.codeInvalid, ADMIN_CODES.codeInvalid);
    const step = Math.floor(now.getTime() / 1000 / PERIOD_S) + delta;
    await this.ctx.db.transaction(async (tx) => {
      if (!(await acceptStep(tx, actor.userId, step, now, confirm)))
        throw badRequest(ADMIN_MSG.codeInvalid, ADMIN_CODES.codeInvalid);
      await this.auth.markSecondFactor(actor, tx);
      await this.audit.record(
        {
          actorId: actor.userId,
          action: confirm ? 'admin.totp_enrolled' : 'admin.totp_verified',
          targetType: 'user',
          targetId: actor.userId,
          ip,
        },
        tx,
      );
    });
  }
}

/** Ten characters in two groups, e.g. `k3m9q-2xw7d` (no look-alike letters). */
function recoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const chars = Array.from({ length: 10 }, () => alphabet[crypto.randomInt(alphabet.length)]).join(
    '',
  );
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Typed with or without the dash, in any case. */
function hashRecoveryCode(code: string): string {
  return hashToken(code.trim().toLowerCase().replace(/[\s-]/g, ''));
}
