import { sql } from 'drizzle-orm';
import {
  bigint,
  date,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The money ledger (issue 18), owned by the payouts module. Amounts are integer micro-dollars
 * (1 cent = 10,000), debits positive and credits negative: the entries of every transaction
 * sum to zero, so the accounts always sum to zero too. Entries are never edited: a reversal is
 * a new transaction.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: serial('id').primaryKey(),
    /** member_cash | silver_liability | promotions | platform_revenue | paid_out | hunter_pending | hunter_available */
    code: text('code').notNull(),
    /** The hunter of a per-hunter account; 0 for the platform's accounts. */
    userId: integer('user_id').notNull().default(0),
    /** The sum of the account's entries, kept in the same transaction as they are written. */
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('ledger_accounts_code_user_idx').on(t.code, t.userId)],
);

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: serial('id').primaryKey(),
    /** membership | renewal | silver_grant | vote_earnings | prize | release | reversal | payout | payout_return */
    kind: text('kind').notNull(),
    refType: text('ref_type'),
    refId: integer('ref_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('ledger_transactions_ref_idx').on(t.refType, t.refId)],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: serial('id').primaryKey(),
    txnId: integer('txn_id')
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.accountId, t.id),
    index('ledger_entries_txn_idx').on(t.txnId),
  ],
);

/**
 * What each hunter earned, per claim (votes) or bounty (prize): the unit that is held for
 * EARNINGS_HOLD_DAYS, released to the available balance, or reversed (hidden claim).
 */
export const hunterEarnings = pgTable(
  'hunter_earnings',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    source: text('source').notNull(), // votes | prize
    claimId: integer('claim_id'),
    bountyId: integer('bounty_id'),
    /** The hunter's share, micro-dollars. */
    micros: bigint('micros', { mode: 'number' }).notNull(),
    /** The part taken back (a hidden claim), micro-dollars. */
    reversedMicros: bigint('reversed_micros', { mode: 'number' }).notNull().default(0),
    earnedAt: timestamp('earned_at', { withTimezone: true, mode: 'date' }).notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('hunter_earnings_user_idx').on(t.userId, t.earnedAt),
    index('hunter_earnings_claim_idx').on(t.claimId),
    index('hunter_earnings_unreleased_idx')
      .on(t.earnedAt)
      .where(sql`released_at is null`),
  ],
);

/** One payout run: the weekly one (one per week, by week_of) or an admin's "run now". */
export const payoutBatches = pgTable(
  'payout_batches',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(), // scheduled | manual
    /** Monday (UTC) of a scheduled run's week. */
    weekOf: date('week_of', { mode: 'string' }),
    createdBy: integer('created_by'),
    fileName: text('file_name').notNull(),
    count: integer('count').notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payout_batches_week_idx')
      .on(t.weekOf)
      .where(sql`kind = 'scheduled'`),
  ],
);

/** One direct-deposit credit: a bank snapshot without the account number (that stays encrypted on the user). */
export const payouts = pgTable(
  'payouts',
  {
    id: serial('id').primaryKey(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => payoutBatches.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amountCents: integer('amount_cents').notNull(),
    legalName: text('legal_name').notNull(),
    routingNumber: text('routing_number').notNull(),
    accountType: text('account_type').notNull(),
    accountLastFour: text('account_last_four').notNull(),
    status: text('status').notNull().default('sent'), // sent | returned
    returnCode: text('return_code'),
    returnedAt: timestamp('returned_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payouts_batch_user_idx').on(t.batchId, t.userId),
    index('payouts_user_idx').on(t.userId, t.id),
  ],
);

/** A Form 1099-NEC: the recipient as of generation (TIN: last four only); the PDF is drawn from it. */
export const taxForms = pgTable(
  'tax_forms',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    year: integer('year').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    legalName: text('legal_name').notNull(),
    street: text('street').notNull(),
    cityStateZip: text('city_state_zip').notNull(),
    tinLastFour: text('tin_last_four').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tax_forms_user_year_idx').on(t.userId, t.year),
    index('tax_forms_year_idx').on(t.year, t.userId),
  ],
);
