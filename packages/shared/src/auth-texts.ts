/**
 * Sign-up, sign-in and password reset: limits, patterns and texts (SPEC.md §5, §8, §9), and the
 * reset link. No zod here: the sign-in page imports this module and stays under its JS budget.
 * The schemas built from these are in auth.ts.
 */

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
  /** Sign-in of a suspended account (403 {code: "SUSPENDED"}, CONTRACT.md "Operations"). */
  suspended: 'Your account is suspended. Contact support.',
  /** The sign-in page after the server ended an open session (a 401 while signed in). */
  sessionEnded: 'Your session has ended. Please sign in again.',
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

/** Where the reset e-mail's link points: {PUBLIC_WEB_URL}/reset/{code}. */
export function resetLink(publicWebUrl: string, code: string): string {
  return `${publicWebUrl.replace(/\/+$/, '')}/reset/${encodeURIComponent(code)}`;
}
