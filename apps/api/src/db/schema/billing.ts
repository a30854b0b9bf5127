import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Every gateway charge or refund; the idempotency key makes a retried request charge once. */
export const charges = pgTable(
  'charges',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    kind: text('kind').notNull(), // membership_start | renewal | refund
    planIndex: integer('plan_index'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status').notNull(), // pending | succeeded | declined
    gatewayRef: text('gateway_ref'),
    failureMessage: text('failure_message'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('charges_user_idx').on(t.userId, t.createdAt.desc())],
);

/** Silver history: every change of users.silver has one row here (in the same transaction). */
export const silverLedger = pgTable(
  'silver_ledger',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    reason: text('reason').notNull(), // membership | renewal | vote | bounty_hold | bounty_win | bounty_refund
    refId: integer('ref_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('silver_ledger_user_idx').on(t.userId, t.createdAt.desc())],
);
