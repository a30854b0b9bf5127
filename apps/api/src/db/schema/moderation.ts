import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A signed-in user's report of a claim, post, hunter profile or bounty. One open report per
 * user and item; an admin's decision (hide or keep) closes every open report of the item.
 */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    reporterId: integer('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetType: text('target_type').notNull(), // claim | post | hunter | bounty
    targetId: integer('target_id').notNull(),
    reason: text('reason').notNull(),
    text: text('text'),
    status: text('status').notNull().default('open'), // open | hidden | kept
    resolvedBy: integer('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reports_open_once_idx')
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`status = 'open'`),
    index('reports_open_item_idx')
      .on(t.targetType, t.targetId, t.createdAt)
      .where(sql`status = 'open'`),
  ],
);
