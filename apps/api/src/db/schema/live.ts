import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The event log of `GET /events` (issue 19): what a stream sends, stored so that a client that
 * reconnects with Last-Event-ID gets what it missed. A row goes to one user (`user_id`) or to
 * every stream watching a topic (`topic`, e.g. `bounty:12` for tallies). Pruned after a week;
 * messages and notifications themselves live in their own tables.
 */
export const liveEvents = pgTable(
  'live_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    topic: text('topic'),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('live_events_user_idx').on(t.userId, t.id),
    index('live_events_topic_idx').on(t.topic, t.id),
    index('live_events_created_idx').on(t.createdAt),
  ],
);

/** Single-use tickets for `GET /events?ticket=` (EventSource cannot send headers). */
export const liveTickets = pgTable('live_tickets', {
  ticketHash: text('ticket_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  sessionId: integer('session_id').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});
