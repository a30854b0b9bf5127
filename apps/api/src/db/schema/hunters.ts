import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

export const hunters = pgTable('hunters', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  stagename: text('stagename'),
  bio: text('bio'),
  banner: text('banner'),
  picture: text('picture'),
  /** The profile hidden by a moderator (reports): gone for everyone but its owner and admins. */
  hiddenAt: timestamp('hidden_at', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type HunterRow = typeof hunters.$inferSelect;
