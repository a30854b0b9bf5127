/**
 * The admin console's users (issue 17 part 4): search, a user's page, suspension, silver grants
 * and mail resends. Tax, bank and card details appear only as SPEC.md shows them to their
 * owner (last four), never in full.
 */
import { z } from 'zod';
import { adminPageQuery } from './admin';
import { digits } from './numbers';

export const ADMIN_USERS_MSG = {
  notFound: 'User not found.',
  suspendSelf: 'You cannot suspend your own account.',
  alreadySuspended: 'This account is already suspended.',
  notSuspended: 'This account is not suspended.',
  invalidCursor: 'That page of users does not exist.',
  suspended: 'The account is suspended and signed out everywhere.',
  unsuspended: 'The account can sign in again.',
  granted: (amount: number) => `${amount} silver granted.`,
  mailSent: 'The mail is on its way.',
} as const;

export const ADMIN_USERS_CODES = {
  suspendSelf: 'CANNOT_SUSPEND_SELF',
  alreadySuspended: 'ALREADY_SUSPENDED',
  notSuspended: 'NOT_SUSPENDED',
} as const;

/** Largest single grant: a typo must not mint a fortune. */
export const SILVER_GRANT_MAX = 10_000;
export const ADMIN_REASON_MAX = 500;

/** GET /admin/users: `q` is a user id, or the start of an e-mail address or handle. */
export const adminUsersQuery = adminPageQuery.extend({
  q: z.string().trim().max(320).optional(),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuery>;

export const adminUserRow = z.object({
  userId: z.number().int(),
  email: z.string(),
  handle: z.string().nullable(),
  role: z.number().int(),
  silver: z.number().int(),
  membership: z.number().int().nullable(),
  /** Membership valid until (ISO), or null. */
  active: z.string().nullable(),
  identityStatus: z.string(),
  /** When the account was suspended (ISO), or null. */
  suspended: z.string().nullable(),
  created: z.string(),
});
export type AdminUserRow = z.infer<typeof adminUserRow>;

/** Masked as the settings page shows them: `xxx-xx-1234`, `Ending in 1234`. */
export const adminUserTax = z.object({
  legalName: z.boolean(),
  address: z.boolean(),
  /** `xxx-xx-` + last four, or null when missing. */
  ssn: z.string().nullable(),
  complete: z.boolean(),
});

export const adminUserBank = z.object({
  name: z.string().nullable(),
  accountType: z.string().nullable(),
  routingNumber: z.boolean(),
  /** `Ending in` + last four, or null when missing. */
  account: z.string().nullable(),
  complete: z.boolean(),
});

export const adminUserSession = z.object({
  sessionId: z.number().int(),
  created: z.string(),
  lastUsed: z.string(),
  expires: z.string(),
  secondFactor: z.boolean(),
});

export const adminUserVote = z.object({
  voteId: z.number().int(),
  claimId: z.number().int(),
  bountyId: z.number().int(),
  bountyTitle: z.string(),
  value: z.number().int(),
  created: z.string(),
});

export const adminUserClaim = z.object({
  claimId: z.number().int(),
  bountyId: z.number().int(),
  bountyTitle: z.string(),
  roundId: z.number().int(),
  media: z.string(),
  votes: z.number().int(),
  hidden: z.boolean(),
  created: z.string(),
});

export const adminUserPost = z.object({
  postId: z.number().int(),
  file: z.string(),
  text: z.string().nullable(),
  hidden: z.boolean(),
  created: z.string(),
});

export const adminUserLedgerEntry = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  balanceAfter: z.number().int(),
  reason: z.string(),
  created: z.string(),
});

/** GET /admin/users/{userId}: the lists hold the newest ten each. */
/** A membership payment of the user (the gateway's charges), newest first. */
export const adminUserPayment = z.object({
  chargeId: z.number().int(),
  kind: z.string(),
  planIndex: z.number().int().nullable(),
  amountCents: z.number().int(),
  status: z.string(),
  /** A succeeded membership or renewal payment not refunded yet. */
  refundable: z.boolean(),
  refunded: z.boolean(),
  created: z.string(),
});
export type AdminUserPayment = z.infer<typeof adminUserPayment>;

export const adminUserDetail = adminUserRow.extend({
  votes: z.number().int(),
  identityReason: z.string().nullable(),
  hunterId: z.number().int().nullable(),
  tax: adminUserTax,
  bank: adminUserBank,
  /** `Ending in` + last four, or null. */
  card: z.string().nullable(),
  sessions: z.array(adminUserSession),
  recentVotes: z.array(adminUserVote),
  claims: z.array(adminUserClaim),
  posts: z.array(adminUserPost),
  silverHistory: z.array(adminUserLedgerEntry),
  payments: z.array(adminUserPayment),
});
export type AdminUserDetail = z.infer<typeof adminUserDetail>;

const reason = z.string().trim().min(1, 'Please give a reason.').max(ADMIN_REASON_MAX);

/** POST /admin/users/{userId}/suspend */
export const suspendSchema = z.object({ reason });
export type SuspendInput = z.infer<typeof suspendSchema>;

/** POST /admin/users/{userId}/silver: a ledger entry `admin_grant` the member sees. */
export const grantSilverSchema = z.object({
  amount: digits(
    z
      .number({ error: 'Enter a whole number of silver.' })
      .int('Enter a whole number of silver.')
      .min(1, 'Grant at least 1 silver.')
      .max(SILVER_GRANT_MAX, `Grant at most ${SILVER_GRANT_MAX} silver at once.`),
  ),
  reason,
});
export type GrantSilverInput = z.input<typeof grantSilverSchema>;
export type GrantSilverValues = z.output<typeof grantSilverSchema>;

/**
 * POST /admin/users/{userId}/refund: the payment goes back to the card; the plan's silver the
 * member still holds is taken back, and what hunters earned from the part already spent is
 * taken back from them while unpaid (issue 18).
 */
export const refundSchema = z.object({
  chargeId: digits(
    z
      .number()
      .int()
      .positive()
      .max(2 ** 31 - 1),
  ),
  reason,
});
export type RefundInput = z.input<typeof refundSchema>;

export const refundAnswer = z.object({
  chargeId: z.number().int(),
  refundedCents: z.number().int(),
  silverTaken: z.number().int(),
  earningsReversedCents: z.number().int(),
});
export type RefundAnswer = z.infer<typeof refundAnswer>;

export const REFUND_MSG = {
  notFound: 'Payment not found.',
  notRefundable: 'Only a successful membership payment can be refunded.',
  already: 'This payment has already been refunded.',
} as const;

/** There is no e-mail verification; the one mail an admin can resend is the reset link. */
export const ADMIN_MAIL_KINDS = ['reset'] as const;
export const resendMailSchema = z.object({ kind: z.enum(ADMIN_MAIL_KINDS) });
export type ResendMailInput = z.infer<typeof resendMailSchema>;

/** Answer of the actions: the user's page as it is now. */
export const adminUserIdParams = z.object({
  userId: digits(z.number().int().min(1).max(2_147_483_647)),
});
