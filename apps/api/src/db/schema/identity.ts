import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Each identity submission (PUT /user/identity) and its review. The images (private media)
 * are deleted 30 days after the decision; the row, with the decision, stays.
 */
export const identitySubmissions = pgTable(
  'identity_submissions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idFrontKey: text('id_front_key').notNull(),
    idSelfieKey: text('id_selfie_key').notNull(),
    /** The form's "I am 18 or older" attestation, when it sends one. */
    ageAttested: boolean('age_attested'),
    status: text('status').notNull().default('pending'), // pending | approved | rejected | superseded
    /** One of the listed rejection reasons (shared/admin), and the admin's free text. */
    reasonCode: text('reason_code'),
    reasonText: text('reason_text'),
    decidedBy: integer('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    imagesDeletedAt: timestamp('images_deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('identity_submissions_user_idx').on(t.userId, t.id.desc()),
    // The review queue, oldest first.
    index('identity_submissions_pending_idx')
      .on(t.createdAt, t.id)
      .where(sql`status = 'pending'`),
    // The 30-day image deletion job.
    index('identity_submissions_purge_idx')
      .on(t.decidedAt)
      .where(sql`decided_at is not null and images_deleted_at is null`),
  ],
);
