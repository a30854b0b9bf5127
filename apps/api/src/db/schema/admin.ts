import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/** An admin's TOTP secret (field cipher); `enrolledAt` null while the enrolment is pending. */
export const adminFactors = pgTable('admin_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEnc: text('secret_enc').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  enrolledAt: timestamp('enrolled_at', { withTimezone: true, mode: 'date' }),
  /** The last 30-second time step whose code was accepted: a code works once. */
  lastStep: integer('last_step'),
});

/** One-time recovery codes, stored as SHA-256 hashes. */
export const adminRecoveryCodes = pgTable(
  'admin_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull().unique(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('admin_recovery_codes_user_idx').on(t.userId)],
);

/**
 * The audit log: every admin action and every admin sign-in, append-only (a trigger refuses
 * UPDATE and DELETE; no endpoint edits it). `before`/`after` hold only the changed fields,
 * secrets masked.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The admin (or the user signing in); no foreign key: rows outlive their actors. */
    actorId: integer('actor_id'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_actor_idx').on(t.actorId, t.id.desc()),
    index('audit_log_action_idx').on(t.action, t.id.desc()),
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.id.desc()),
  ],
);
