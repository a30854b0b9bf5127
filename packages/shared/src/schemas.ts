/**
 * One zod schema per form and request body (SPEC.md §5): the browser form and the API
 * route validate with the same object.
 */
import { z } from 'zod';
import { LIMITS } from './limits';
import { MSG } from './messages';

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_RE = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\W).{8,}$/s;

const email = (message: string) =>
  z.string({ error: message }).trim().max(LIMITS.email, message).regex(EMAIL_RE, message);

const password = (message: string) =>
  z
    .string({ error: message })
    .min(LIMITS.passwordMin, message)
    .max(LIMITS.passwordMax, message)
    .regex(PASSWORD_RE, message);

export const emailSchema = email(MSG.emailInvalid);
export const emailLongSchema = email(MSG.emailInvalidLong);
export const passwordSchema = password(MSG.passwordInvalid);
export const newPasswordSchema = password(MSG.passwordCriteria);

/** POST /user */
export const registerSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  hunter: z.boolean().default(false),
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** POST /auth. SPEC.md §5: no client-side validation; the server only bounds the sizes. */
export const loginSchema = z.object({
  email: z.string().max(LIMITS.email),
  password: z.string().max(LIMITS.passwordMax),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** /forgot form; the API takes the e-mail in the path. */
export const forgotSchema = z.object({ email: emailLongSchema });

/** PUT /user/reset */
export const resetSchema = z.object({
  resetCode: z.string({ error: MSG.passwordCriteria }).min(1, MSG.passwordCriteria).max(200),
  newPassword: newPasswordSchema,
});
export type ResetInput = z.infer<typeof resetSchema>;

/** PUT /user/password */
export const passwordChangeSchema = z.object({
  oldPassword: z
    .string({ error: MSG.currentPasswordRequired })
    .min(1, MSG.currentPasswordRequired)
    .max(LIMITS.passwordMax),
  newPassword: newPasswordSchema,
});

/** Handle: letters and digits only, at most 15; SPEC.md enforces no minimum. */
export const HANDLE_STRIP_RE = /[^A-Za-z0-9]/g;
export const handleSchema = z.object({
  handle: z
    .string({ error: MSG.handleRequired })
    .min(1, MSG.handleRequired)
    .max(LIMITS.handle, MSG.handleRequired)
    .regex(/^[A-Za-z0-9]+$/, MSG.handleRequired),
});

/** Stage name and bio: empty is sent as the text "null" and stored as no value. */
const nullableText = (max: number) =>
  z
    .string()
    .max(Math.max(max, 4))
    .transform((v) => (v.trim() === '' || v === 'null' ? null : v.trim()))
    .pipe(z.string().max(max).nullable());

export const stagenameSchema = z.object({ stagename: nullableText(LIMITS.stagename) });
export const bioSchema = z.object({ bio: nullableText(LIMITS.bio) });

export const nameSchema = z.object({
  firstName: z.string().trim().min(1, MSG.firstNameRequired).max(LIMITS.firstName),
  lastName: z.string().trim().min(1, MSG.lastNameRequired).max(LIMITS.lastName),
});

export const addressSchema = z.object({
  street: z.string().trim().min(1, MSG.streetRequired).max(LIMITS.street),
  city: z.string().trim().min(1, MSG.cityRequired).max(LIMITS.city),
  state: z.string().trim().min(1, MSG.stateRequired).max(LIMITS.state),
  zip: z.string().trim().min(1, MSG.zipRequired).max(LIMITS.zip),
});

export const ssnSchema = z.object({
  ssn: z.string().regex(/^\d{9}$/, MSG.ssnIncomplete),
});

/** ABA routing number check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function isValidRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = value.split('').map(Number) as number[];
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

export const bankSchema = z.object({
  name: z.string().trim().min(1, MSG.bankNameRequired).max(LIMITS.bankName, MSG.bankNameRequired),
  accountType: z.enum(['checking', 'savings']).default('checking'),
  routingNumber: z.string().refine(isValidRoutingNumber, MSG.routingInvalid),
  accountNumber: z
    .string()
    .regex(
      new RegExp(`^\\d{${LIMITS.accountNumberMin},${LIMITS.accountNumberMax}}$`),
      MSG.accountInvalid,
    ),
});

export const identitySchema = z.object({
  idFront: z.string({ error: MSG.idFrontRequired }).min(1, MSG.idFrontRequired).max(200),
  idSelfie: z.string({ error: MSG.idSelfieRequired }).min(1, MSG.idSelfieRequired).max(200),
});

/** Luhn check digit (ISO/IEC 7812): every card number a processor accepts passes it. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export const CARD_MSG = {
  number: 'Please enter a valid card number.',
  cvv: 'Please enter a valid CVV.',
  expiry: 'Please enter a valid expiry date.',
  name: 'Please enter the name on the card.',
  zip: 'Please enter your billing zip code.',
} as const;

/**
 * PUT /user/card, POST /user/membership (SPEC.md §3 credit card form, §5 rules): number with
 * spaces removed, CVV of 3–4 digits, month 1–12, year as 2 or 4 digits (26 → 2026).
 * Whether the expiry lies in the future is the gateway's call (it owns the clock).
 */
export const cardSchema = z.object({
  number: z
    .string({ error: CARD_MSG.number })
    .max(40, CARD_MSG.number)
    .regex(/^[\d ]*$/, CARD_MSG.number)
    .transform((v) => v.replace(/\s+/g, ''))
    .pipe(
      z
        .string()
        .regex(/^\d{12,19}$/, CARD_MSG.number)
        .refine(isLuhnValid, CARD_MSG.number),
    ),
  cvv: z.string({ error: CARD_MSG.cvv }).regex(new RegExp(`^\\d{3,${LIMITS.cvv}}$`), CARD_MSG.cvv),
  month: z.coerce
    .number({ error: CARD_MSG.expiry })
    .int(CARD_MSG.expiry)
    .min(1, CARD_MSG.expiry)
    .max(12, CARD_MSG.expiry),
  year: z.coerce
    .number({ error: CARD_MSG.expiry })
    .int(CARD_MSG.expiry)
    .min(0, CARD_MSG.expiry)
    .max(2999, CARD_MSG.expiry)
    .transform((y) => (y < 100 ? 2000 + y : y))
    .pipe(z.number().min(2000, CARD_MSG.expiry)),
  name: z.string({ error: CARD_MSG.name }).trim().min(1, CARD_MSG.name).max(100, CARD_MSG.name),
  zip: z.string({ error: CARD_MSG.zip }).trim().min(1, CARD_MSG.zip).max(LIMITS.zip, CARD_MSG.zip),
});
export type CardInput = z.infer<typeof cardSchema>;

export const postSchema = z.object({
  text: z.string().max(LIMITS.postText, `At most ${LIMITS.postText} characters.`).default(''),
  fileName: z.string().min(1).max(200),
});

export const BOUNTY_DURATION_HOURS = [8, 24, 168, 720] as const;
export const BOUNTY_MEDIA_TYPES = [
  { code: 1, label: 'Pictures' },
  { code: 2, label: 'Shorts' },
  { code: 4, label: 'Videos' },
] as const;

export const bountyCreateSchema = z.object({
  title: z.string({ error: MSG.titleBlank }).trim().min(1, MSG.titleBlank).max(LIMITS.bountyTitle),
  seconds: z
    .number({ error: MSG.hoursInvalid })
    .int(MSG.hoursInvalid)
    .gt(LIMITS.minBountySeconds, MSG.hoursInvalid)
    .max(366 * 24 * 3600, MSG.hoursInvalid),
  amount: z.number().int().min(0).default(0),
  mediaType: z.union([z.literal(1), z.literal(2), z.literal(4)]).default(1),
});

export const voteSchema = z.object({
  claimId: z.number().int().positive(),
  votes: z.number().int().min(1).max(5),
});
