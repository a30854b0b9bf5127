import { sql } from 'drizzle-orm';
import { integer, pgTable, serial, text, timestamp, uniqueIndex, index } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Bit mask: 1 member, 2 hunter (SPEC.md §3), 4 admin (CONTRACT.md "Operations"). */
    role: integer('role').notNull(),
    /** Membership valid until; null when never a member. */
    active: timestamp('active', { withTimezone: true, mode: 'date' }),
    /** Chosen plan index (0..2). */
    membership: integer('membership'),
    /** Plan taking effect at the next renewal. */
    pendingMembership: integer('pending_membership'),
    renewalFailures: integer('renewal_failures').notNull().default(0),
    nextRenewalAttemptAt: timestamp('next_renewal_attempt_at', {
      withTimezone: true,
      mode: 'date',
    }),
    handle: text('handle'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    street: text('street'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    /** AES-256-GCM ciphertext "keyId:iv:tag:data" (base64 parts); never leaves the server. */
    ssnEnc: text('ssn_enc'),
    ssnLastFour: text('ssn_last_four'),
    bankName: text('bank_name'),
    bankAccountType: text('bank_account_type'),
    bankRoutingNumber: text('bank_routing_number'),
    bankAccountEnc: text('bank_account_enc'),
    bankAccountLastFour: text('bank_account_last_four'),
    cardBrand: text('card_brand'),
    cardLastFour: text('card_last_four'),
    cardExpMonth: integer('card_exp_month'),
    cardExpYear: integer('card_exp_year'),
    cardToken: text('card_token'),
    silver: integer('silver').notNull().default(0),
    votes: integer('votes').notNull().default(0),
    identityStatus: text('identity_status').notNull().default('none'),
    idFrontKey: text('id_front_key'),
    idSelfieKey: text('id_selfie_key'),
    /** The rejection reason shown to the user (GET /user identityReason); null otherwise. */
    identityReason: text('identity_reason'),
    /** Set by an admin: sign-in answers 403 SUSPENDED and the user's content is hidden. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_handle_lower_idx').on(sql`lower(${t.handle})`),
    index('users_active_idx').on(t.active),
    // Admin search by e-mail or handle prefix.
    index('users_email_prefix_idx').on(sql`lower(${t.email}) text_pattern_ops`),
    index('users_handle_prefix_idx').on(sql`lower(${t.handle}) text_pattern_ops`),
  ],
);

export type UserRow = typeof users.$inferSelect;
