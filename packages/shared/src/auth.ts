/**
 * Sign-up, sign-in, forgotten and reset passwords (SPEC.md §2 "Sign In", "Sign Up", §5, §8;
 * CONTRACT.md POST /user, POST /auth, /user/reset): request schemas, the answer, limits and
 * texts. The e-mail and password validators are also account.ts's (e-mail and password change).
 */
import { z } from 'zod';
import { userAnswer } from './users';

/** SPEC.md §9 limits. */
export const AUTH_LIMITS = {
  email: 320,
  passwordMin: 8,
  /** Not in SPEC.md: caps the work argon2 does on hostile input. */
  passwordMax: 256,
} as const;

/** SPEC.md §5 and §8 texts. Wording is a requirement: change it only with SPEC.md. */
export const AUTH_MSG = {
  emailInvalid: 'Please enter a valid email address.',
  emailInvalidLong: "Please enter a valid email address. Ensure it's correctly formatted.",
  passwordInvalid: 'Please enter a valid password.',
  passwordCriteria:
    'Your new password does not meet the required criteria. Ensure it includes a mix of uppercase, lowercase, and special characters, and is at least 8 characters long.',
  loginInvalid: 'Invalid login credentials. Please try again.',
  loginUserLoad: 'Error loading user data. Please try again',
  emailExists: 'Email already exists. Please sign in.',
  resetNotFound: "Email address not found. If you're new, please sign up.",
  resetSent: 'A password reset email has been sent. Please check your inbox.',
  resetThrown:
    'A system error occurred. We apologize for the inconvenience. Please try again later...',
  resetCodeInvalid: 'This password reset link is invalid or has expired.',
  loginOther: (status: number) => `Error authenticate (${status})`,
  loginThrown: (error: string) => `Error ${error}`,
  createAccount: (status: number) => `Error createAccount(${status})`,
  authenticate: (status: number) => `Error authenticate(${status})`,
  resetOther: (status: number) =>
    `Unexpected error occurred (Error: ${status}). Please verify your email address and try again, or contact our support team for assistance.`,
} as const;

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_RE = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\W).{8,}$/s;

const email = (message: string) =>
  z.string({ error: message }).trim().max(AUTH_LIMITS.email, message).regex(EMAIL_RE, message);

const password = (message: string) =>
  z
    .string({ error: message })
    .min(AUTH_LIMITS.passwordMin, message)
    .max(AUTH_LIMITS.passwordMax, message)
    .regex(PASSWORD_RE, message);

export const emailSchema = email(AUTH_MSG.emailInvalid);
export const emailLongSchema = email(AUTH_MSG.emailInvalidLong);
export const passwordSchema = password(AUTH_MSG.passwordInvalid);
export const newPasswordSchema = password(AUTH_MSG.passwordCriteria);

/** POST /user */
export const registerSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  hunter: z.boolean().default(false),
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** POST /auth. SPEC.md §5: no client-side validation; the server only bounds the sizes. */
export const loginSchema = z.object({
  email: z.string().max(AUTH_LIMITS.email),
  password: z.string().max(AUTH_LIMITS.passwordMax),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** /forgot form; the API takes the e-mail in the path. */
export const forgotSchema = z.object({ email: emailLongSchema });
export type ForgotInput = z.infer<typeof forgotSchema>;

/** PUT /user/reset */
export const resetSchema = z.object({
  resetCode: z
    .string({ error: AUTH_MSG.passwordCriteria })
    .min(1, AUTH_MSG.passwordCriteria)
    .max(200),
  newPassword: newPasswordSchema,
});
export type ResetInput = z.infer<typeof resetSchema>;

/** POST /user, POST /auth: the session token and the signed-in user. */
export const authAnswer = z.object({ token: z.string(), user: userAnswer });
export type AuthAnswer = z.infer<typeof authAnswer>;

/** Where the reset e-mail's link points: {PUBLIC_WEB_URL}/reset/{code}. */
export function resetLink(publicWebUrl: string, code: string): string {
  return `${publicWebUrl.replace(/\/+$/, '')}/reset/${encodeURIComponent(code)}`;
}
