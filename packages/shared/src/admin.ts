/**
 * The admin area (CONTRACT.md "Operations, payouts and live events"): the TOTP second factor
 * and the first admin endpoint. Every /admin answer but enrol/confirm/verify needs an admin
 * session that has passed the second factor.
 */
import { z } from 'zod';
import { digits } from './numbers';

export const RECOVERY_CODE_COUNT = 10;

export const ADMIN_CODES = {
  secondFactorRequired: 'SECOND_FACTOR_REQUIRED',
  alreadyEnrolled: 'TOTP_ALREADY_ENROLLED',
  notEnrolled: 'TOTP_NOT_ENROLLED',
  codeInvalid: 'TOTP_CODE_INVALID',
} as const;

export const ADMIN_MSG = {
  secondFactorRequired: 'Enter the code from your authenticator app to continue.',
  alreadyEnrolled: 'An authenticator app is already set up for this account.',
  notEnrolled: 'Set up an authenticator app first.',
  codeInvalid: 'That code is not valid. Please try again.',
} as const;

/** Six digits from the authenticator app. */
export const totpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/);

export const totpConfirmSchema = z.object({ code: totpCode });

export const totpVerifySchema = z.union([
  z.object({ code: totpCode }).strict(),
  z.object({ recoveryCode: z.string().trim().min(1).max(64) }).strict(),
]);
export type TotpVerifyInput = z.infer<typeof totpVerifySchema>;

export const totpEnrolAnswer = z.object({
  otpauthUrl: z.string(),
  /** The otpauth URL as a QR code, a data: URL (PNG). */
  qr: z.string(),
  /** Shown once; each works once in place of a code. */
  recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT),
});
export type TotpEnrolAnswer = z.infer<typeof totpEnrolAnswer>;

export const adminMeAnswer = z.object({
  userId: z.number().int(),
  email: z.string(),
  secondFactor: z.literal(true),
});
export type AdminMeAnswer = z.infer<typeof adminMeAnswer>;

export const totpStatusAnswer = z.object({
  /** An authenticator app is set up: sign-in asks for its code; otherwise enrol first. */
  enrolled: z.boolean(),
  /** This session has passed the second factor. */
  secondFactor: z.boolean(),
});
export type TotpStatusAnswer = z.infer<typeof totpStatusAnswer>;

/** The console's tables: keyset pages, newest first unless a table says otherwise. */
export const ADMIN_PAGE = { default: 50, max: 200 } as const;

export const adminPageQuery = z.object({
  cursor: z.string().max(500).optional(),
  limit: digits(z.number().int().min(1).max(ADMIN_PAGE.max).optional()),
});

/** Actions written to the audit log (one name per kind of admin act). */
export const AUDIT_ACTIONS = [
  'admin.sign_in',
  'admin.totp_enrolled',
  'admin.totp_verified',
  'admin.recovery_code_used',
  'admin.granted',
  'admin.factor_reset',
  'identity.approve',
  'identity.reject',
  'user.suspend',
  'user.unsuspend',
  'user.grant_silver',
  'user.resend_mail',
  'user.refund',
  'report.hide',
  'report.keep',
  'payout.run',
  'payout.file_download',
  'payout.return',
  'tax.generate',
  'tax.csv_download',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditQuery = adminPageQuery.extend({
  actorId: digits(z.number().int().positive().max(2_147_483_647).optional()),
  action: z.enum(AUDIT_ACTIONS).optional(),
  targetType: z.string().trim().min(1).max(40).optional(),
  targetId: z.string().trim().min(1).max(40).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditEntry = z.object({
  auditId: z.number().int(),
  actorId: z.number().int().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** The changed fields before and after, secrets masked. */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
  created: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** GET /admin/dashboard */
export const dashboardAnswer = z.object({
  users: z.number().int(),
  activeMembers: z.number().int(),
  /** Monthly recurring revenue: the plan prices of the memberships running now. */
  mrrCents: z.number().int(),
  claimsToday: z.number().int(),
  votesToday: z.number().int(),
  /** Items with open reports. */
  openReports: z.number().int(),
  pendingIdentities: z.number().int(),
  jobs: z.object({
    byState: z.record(z.string(), z.number().int()),
    failed: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        failedAt: z.string().nullable(),
        error: z.string().nullable(),
      }),
    ),
  }),
  /** When "today" began (UTC midnight). */
  since: z.string(),
});
export type DashboardAnswer = z.infer<typeof dashboardAnswer>;
