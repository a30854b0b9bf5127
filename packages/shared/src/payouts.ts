/**
 * Creators get paid (issue 18, CONTRACT.md "Operations, payouts and live events"): a hunter's
 * earnings in money, the weekly direct-deposit payout run (a NACHA PPD credit file) and the
 * yearly Form 1099-NEC. Money in answers is whole cents; the ledger itself keeps micro-dollars.
 */
import { z } from 'zod';
import { adminPageQuery } from './admin';
import { digits } from './numbers';

/** Cents per dollar, micro-dollars per cent. */
export const MICROS_PER_CENT = 10_000;

/** What a hunter still has to give before payouts can start, in the order the page lists them. */
export const PAYOUT_REQUIREMENTS = ['identity', 'name', 'address', 'ssn', 'bank'] as const;
export type PayoutRequirement = (typeof PAYOUT_REQUIREMENTS)[number];

/** Label and the settings form that fixes each requirement. */
export const PAYOUT_REQUIREMENT_INFO: Record<PayoutRequirement, { label: string; to: string }> = {
  identity: { label: 'Identity verified', to: '/account/identity' },
  name: { label: 'Legal name', to: '/account/name' },
  address: { label: 'Tax address', to: '/account/address' },
  ssn: { label: 'Social Security number', to: '/account/ssn' },
  bank: { label: 'Bank account for direct deposit', to: '/account/bank' },
};

export const PAYOUT_STATUSES = ['sent', 'returned'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** Why a bank sent a payout back (the NACHA return codes an admin picks from). */
export const PAYOUT_RETURN_REASONS = {
  R01: 'Insufficient funds',
  R02: 'Account closed',
  R03: 'No account / unable to locate account',
  R04: 'Invalid account number',
  R16: 'Account frozen',
  R20: 'Non-transaction account',
} as const;
export type PayoutReturnCode = keyof typeof PAYOUT_RETURN_REASONS;
export const PAYOUT_RETURN_CODES = Object.keys(PAYOUT_RETURN_REASONS) as [
  PayoutReturnCode,
  ...PayoutReturnCode[],
];

export const PAYOUT_MSG = {
  hunterOnly: 'Earnings are for hunters.',
  nothingToPay: 'No hunter has an available balance to pay.',
  notSent: 'Only a sent payout can be marked returned.',
  payoutNotFound: 'Payout not found.',
  batchNotFound: 'Payout run not found.',
  taxFormNotFound: 'No tax form for that year.',
  yearInvalid: 'Choose a year from 2020 up to last year.',
} as const;

export const payoutItem = z.object({
  payoutId: z.number().int(),
  created: z.string(),
  amountCents: z.number().int(),
  status: z.enum(PAYOUT_STATUSES),
  accountLastFour: z.string(),
  /** Set when the bank sent it back. */
  returned: z.string().nullable(),
  returnReason: z.string().nullable(),
});
export type PayoutItem = z.infer<typeof payoutItem>;

/** GET /user/earnings (role 2). */
export const earningsAnswer = z.object({
  /** Earned but still in the holding period (EARNINGS_HOLD_DAYS). */
  pendingCents: z.number().int(),
  /** Cleared: paid in the next run when at least minimumCents and nothing is missing. */
  availableCents: z.number().int(),
  /** Paid out and not returned, all time. */
  paidCents: z.number().int(),
  payouts: z.array(payoutItem),
  /** The last 12 weeks (Monday, UTC), oldest first; weeks without earnings are 0. */
  weeks: z.array(z.object({ weekStart: z.string(), earnedCents: z.number().int() })),
  missing: z.array(z.enum(PAYOUT_REQUIREMENTS)),
  minimumCents: z.number().int(),
  holdDays: z.number().int(),
  /** When the next weekly run is due. */
  nextRunAt: z.string(),
});
export type EarningsAnswer = z.infer<typeof earningsAnswer>;

/** GET /user/tax-forms (role 2): the hunter's 1099-NEC forms, newest year first. */
export const taxFormsAnswer = z.object({
  forms: z.array(
    z.object({
      year: z.number().int(),
      amountCents: z.number().int(),
      created: z.string(),
    }),
  ),
});
export type TaxFormsAnswer = z.infer<typeof taxFormsAnswer>;

export const taxYearParams = z.object({
  year: digits(z.number().int().min(2020).max(2100)),
});

export const payoutIdParams = z.object({
  id: digits(
    z
      .number()
      .int()
      .positive()
      .max(2 ** 31 - 1),
  ),
});

/** GET /admin/payouts/preview: who the next run would pay, and who is held back and why. */
export const payoutPreviewAnswer = z.object({
  runAt: z.string(),
  minimumCents: z.number().int(),
  count: z.number().int(),
  totalCents: z.number().int(),
  payees: z.array(
    z.object({
      userId: z.number().int(),
      handle: z.string().nullable(),
      legalName: z.string(),
      amountCents: z.number().int(),
      accountLastFour: z.string(),
    }),
  ),
  /** Hunters with an available balance who are not paid, with what is missing or "minimum". */
  held: z.array(
    z.object({
      userId: z.number().int(),
      handle: z.string().nullable(),
      availableCents: z.number().int(),
      reasons: z.array(z.enum([...PAYOUT_REQUIREMENTS, 'minimum'])),
    }),
  ),
});
export type PayoutPreviewAnswer = z.infer<typeof payoutPreviewAnswer>;

export const payoutBatchItem = z.object({
  batchId: z.number().int(),
  created: z.string(),
  /** "scheduled" (the weekly run) or "manual" (an admin's run now). */
  kind: z.enum(['scheduled', 'manual']),
  /** Monday (UTC) of the week of a scheduled run. */
  weekOf: z.string().nullable(),
  count: z.number().int(),
  totalCents: z.number().int(),
  returnedCents: z.number().int(),
  fileName: z.string(),
});
export type PayoutBatchItem = z.infer<typeof payoutBatchItem>;

/** GET /admin/payouts/batches: newest first, keyset pages (x-next-cursor). */
export const payoutBatchesQuery = adminPageQuery;

/** POST /admin/payouts/run answers the new batch (409 NOTHING_TO_PAY when nobody qualifies). */
export const payoutBatchAnswer = payoutBatchItem;

/** GET /admin/payouts/batches/:id */
export const payoutBatchDetailAnswer = payoutBatchItem.extend({
  payouts: z.array(
    payoutItem.extend({
      userId: z.number().int(),
      handle: z.string().nullable(),
      legalName: z.string(),
    }),
  ),
});
export type PayoutBatchDetailAnswer = z.infer<typeof payoutBatchDetailAnswer>;

/** POST /admin/payouts/:id/return */
export const payoutReturnSchema = z.object({
  code: z.enum(PAYOUT_RETURN_CODES),
});
export type PayoutReturnInput = z.infer<typeof payoutReturnSchema>;

/** GET /admin/tax-forms/:year: the forms made for a year (after generate). */
export const adminTaxFormsAnswer = z.object({
  year: z.number().int(),
  thresholdCents: z.number().int(),
  forms: z.array(
    z.object({
      userId: z.number().int(),
      handle: z.string().nullable(),
      legalName: z.string(),
      amountCents: z.number().int(),
      created: z.string(),
    }),
  ),
});
export type AdminTaxFormsAnswer = z.infer<typeof adminTaxFormsAnswer>;

/** POST /admin/tax-forms/:year/generate */
export const taxFormsGeneratedAnswer = z.object({
  year: z.number().int(),
  count: z.number().int(),
});

/**
 * Form 1099-NEC filing threshold by year of payment: $600 for payments made through 2025,
 * $2,000 for payments made after 2025-12-31 (One Big Beautiful Bill Act).
 */
export function necThresholdCents(year: number): number {
  return year <= 2025 ? 60_000 : 200_000;
}

/** "$1,234.56" */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}
