/**
 * Memberships, cards and silver (SPEC.md §3 credit card form, §5, §9; CONTRACT.md "Money and
 * tokens"): the plans, the card request schema, answer shapes of the billing endpoints, the
 * gateway's card messages and the card-form input helpers of SPEC.md §5 (number with spaces,
 * expiry that inserts '/' and prefixes 0).
 */
import { z } from 'zod';
import { ACCOUNT_LIMITS } from './account';
import { digits } from './numbers';

/** SPEC.md §9 limits. */
export const BILLING_LIMITS = {
  expiry: 5,
  cvv: 4,
} as const;

/** SPEC.md §9 / CONTRACT.md "Money and tokens". Prices in cents. */
export const PLANS = [
  { index: 0, name: 'Standard', priceCents: 699, resolution: '720p (HD)', silver: 50, gold: 200 },
  {
    index: 1,
    name: 'Premium',
    priceCents: 1549,
    resolution: '1080p (Full HD)',
    silver: 100,
    gold: 600,
  },
  {
    index: 2,
    name: 'Deluxe',
    priceCents: 2299,
    resolution: '4K (Ultra HD) + HDR',
    silver: 200,
    gold: 1000,
  },
] as const;

export const DEFAULT_PLAN_INDEX = 2;
export { CARD_ENTRY_FEE_TEXT, JOIN_STARTS_AT_TEXT } from './billing-texts';

export function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** Card problems a processor reports (402, or 400 for a malformed form). */
export const PAYMENT_MSG = {
  declined: 'Your card was declined.',
  expired: 'Your card has expired.',
  incorrectNumber: 'Your card number is incorrect.',
  noCard: 'No card on file. Please add a card to continue.',
  notEnoughSilver: 'Not enough silver.',
  planInvalid: 'Please choose one of the three plans.',
  planChangeScheduled: 'Your new plan starts at your next renewal.',
  /** SPEC.md §8. */
  paymentError: (status: number) =>
    `We encountered an issue while updating your credit card information. Error: ${status}`,
} as const;

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
  cvv: z
    .string({ error: CARD_MSG.cvv })
    .regex(new RegExp(`^\\d{3,${BILLING_LIMITS.cvv}}$`), CARD_MSG.cvv),
  month: digits(
    z
      .number({ error: CARD_MSG.expiry })
      .int(CARD_MSG.expiry)
      .min(1, CARD_MSG.expiry)
      .max(12, CARD_MSG.expiry),
  ),
  year: digits(
    z
      .number({ error: CARD_MSG.expiry })
      .int(CARD_MSG.expiry)
      .min(0, CARD_MSG.expiry)
      .max(2999, CARD_MSG.expiry)
      .transform((y) => (y < 100 ? 2000 + y : y))
      .pipe(z.number().min(2000, CARD_MSG.expiry)),
  ),
  name: z.string({ error: CARD_MSG.name }).trim().min(1, CARD_MSG.name).max(100, CARD_MSG.name),
  zip: z
    .string({ error: CARD_MSG.zip })
    .trim()
    .min(1, CARD_MSG.zip)
    .max(ACCOUNT_LIMITS.zip, CARD_MSG.zip),
});
export type CardInput = z.infer<typeof cardSchema>;

export const membershipStatus = z.enum(['none', 'active', 'expired']);
export type MembershipStatus = z.infer<typeof membershipStatus>;

export const cardOnFile = z.object({
  brand: z.string(),
  lastFour: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});
export type CardOnFile = z.infer<typeof cardOnFile>;

/** GET /user/membership */
export const membershipAnswer = z.object({
  status: membershipStatus,
  /** Plan index 0..2 in force (or chosen for the next start). */
  membership: z.number().int().nullable(),
  /** Plan that takes over at the next renewal, when the member changed plan while active. */
  pendingMembership: z.number().int().nullable(),
  active: z.string().nullable(),
  card: cardOnFile.nullable(),
  /** Declined renewal attempts in a row; the next retry time while retrying. */
  renewalFailures: z.number().int(),
  nextRenewalAttemptAt: z.string().nullable(),
});
export type MembershipAnswer = z.infer<typeof membershipAnswer>;

export const SILVER_REASONS = [
  'membership',
  'renewal',
  'vote',
  'bounty_hold',
  'bounty_win',
  'bounty_refund',
  'admin_grant',
] as const;

export const SILVER_REASON_LABEL: Record<string, string> = {
  membership: 'Membership started',
  renewal: 'Membership renewed',
  vote: 'Votes cast',
  bounty_hold: 'Bounty posted',
  bounty_win: 'Bounty won',
  bounty_refund: 'Bounty refunded',
  vote_earnings: 'Votes received',
  admin_grant: 'Granted by BountyHunt',
  refund: 'Payment refunded',
};

export const silverEntry = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  balanceAfter: z.number().int(),
  reason: z.string(),
  refId: z.number().int().nullable(),
  created: z.string(),
});
export type SilverEntry = z.infer<typeof silverEntry>;

/** GET /user/silver */
export const silverAnswer = z.object({
  silver: z.number().int(),
  history: z.array(silverEntry),
  /** Pass as `before` for the next (older) page; null at the end. */
  nextBefore: z.number().int().nullable(),
});
export type SilverAnswer = z.infer<typeof silverAnswer>;

export const silverQuery = z.object({
  limit: digits(z.number().int().min(1).max(100).default(50)),
  before: digits(z.number().int().positive().max(2_147_483_647).optional()),
});
export type SilverQuery = z.infer<typeof silverQuery>;

/** Card number as typed: digits and spaces only, grouped by four (amex 4-6-5), at most 19 digits. */
export function formatCardNumberInput(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  if (/^3[47]/.test(digits)) {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)]
      .filter(Boolean)
      .join(' ');
  }
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * Expiry as typed (SPEC.md §5): digits only, '/' inserted after two digits, a leading digit
 * above 1 gets a 0 prefix, at most 5 characters. Deleting back over the '/' removes it.
 */
export function formatExpiryInput(value: string, previous = ''): string {
  let digits = value.replace(/\D/g, '');
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  const deleting = value.length < previous.length;
  if (digits.length < 2 || (digits.length === 2 && deleting)) return digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`.slice(0, BILLING_LIMITS.expiry);
}

/** "MM/YY" → month and year, or null when incomplete. */
export function parseExpiry(value: string): { month: string; year: string } | null {
  const m = /^(\d{2})\/(\d{2})$/.exec(value);
  return m ? { month: m[1]!, year: m[2]! } : null;
}

export function cardBrandOf(digits: string): string {
  if (/^4/.test(digits)) return 'Visa';
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(digits)) return 'Mastercard';
  if (/^3[47]/.test(digits)) return 'American Express';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'Discover';
  if (/^35(2[89]|[3-8]\d)/.test(digits)) return 'JCB';
  if (/^3(0[0-5]|[68])/.test(digits)) return 'Diners Club';
  return 'Card';
}
