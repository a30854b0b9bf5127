/**
 * Sign-up, sign-in, forgotten and reset passwords (SPEC.md §2 "Sign In", "Sign Up", §5, §8;
 * CONTRACT.md POST /user, POST /auth, /user/reset): request schemas, the answer, limits and
 * validators. Limits and texts are in auth-texts.ts, free of zod, because the sign-in page is
 * kept light (it validates by hand; e2e/specs/budget.spec.ts). The e-mail and password
 * validators are also account.ts's (e-mail and password change).
 */
import { z } from 'zod';
import { AUTH_LIMITS, AUTH_MSG, EMAIL_RE, PASSWORD_RE } from './auth-texts';
import { userAnswer } from './users';

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
/** Whatever is missing or wrong, sign-in answers SPEC.md's one message (400). */
export const loginSchema = z.object({
  email: z.string({ error: AUTH_MSG.loginInvalid }).max(AUTH_LIMITS.email),
  password: z.string({ error: AUTH_MSG.loginInvalid }).max(AUTH_LIMITS.passwordMax),
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
