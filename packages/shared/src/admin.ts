/**
 * The admin area (CONTRACT.md "Operations, payouts and live events"): the TOTP second factor
 * and the first admin endpoint. Every /admin answer but enrol/confirm/verify needs an admin
 * session that has passed the second factor.
 */
import { z } from 'zod';

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
