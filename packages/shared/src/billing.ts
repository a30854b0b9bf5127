/**
 * Memberships, cards and silver (CONTRACT.md "Money and tokens"): answer shapes of the
 * billing endpoints, the gateway's card messages and the card-form input helpers of
 * SPEC.md §5 (number with spaces, expiry that inserts '/' and prefixes 0).
 */
import { z } from 'zod';
import { LIMITS } from './limits';

/** Card problems a processor reports (402, or 400 for a malformed form). */
export const PAYMENT_MSG = {
  declined: 'Your card was declined.',
  expired: 'Your card has expired.',
  incorrectNumber: 'Your card number is incorrect.',
  noCard: 'No card on file. Please add a card to continue.',
  notEnoughSilver: 'Not enough silver.',
  planInvalid: 'Please choose one of the three plans.',
  planChangeScheduled: 'Your new plan starts at your next renewal.',
} as const;

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
] as const;

export const SILVER_REASON_LABEL: Record<string, string> = {
  membership: 'Membership started',
  renewal: 'Membership renewed',
  vote: 'Votes cast',
  bounty_hold: 'Bounty posted',
  bounty_win: 'Bounty won',
  bounty_refund: 'Bounty refunded',
  vote_earnings: 'Votes received',
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
  limit: z.coerce.number().int().min(1).max(100).default(50),
  before: z.coerce.number().int().positive().optional(),
});

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
  return `${digits.slice(0, 2)}/${digits.slice(2)}`.slice(0, LIMITS.expiry);
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
