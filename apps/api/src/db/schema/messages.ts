import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/** A direct conversation between two users (issue 19); `user_a` < `user_b`, one per pair. */
export const conversations = pgTable(
  'conversations',
  {
    id: serial('id').primaryKey(),
    userA: integer('user_a')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userB: integer('user_b')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastMessageId: bigint('last_message_id', { mode: 'number' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('conversations_pair_idx').on(t.userA, t.userB)],
);

/**
 * Each party's side of a conversation: what they have read (read receipts, unread counts) and
 * when an unread-message mail last went out (at most one per conversation per hour).
 */
export const conversationMembers = pgTable(
  'conversation_members',
  {
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    otherId: integer('other_id').notNull(),
    lastReadId: bigint('last_read_id', { mode: 'number' }).notNull().default(0),
    unread: integer('unread').notNull().default(0),
    /** The oldest message still unread, for the 15-minute mail. */
    unreadSince: timestamp('unread_since', { withTimezone: true, mode: 'date' }),
    mailedAt: timestamp('mailed_at', { withTimezone: true, mode: 'date' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.userId] }),
    index('conversation_members_list_idx').on(t.userId, t.lastMessageAt),
    index('conversation_members_unread_idx')
      .on(t.unreadSince)
      .where(sql`unread > 0`),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    image: text('image'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Removed by a moderator (reports): the parties see that a message was removed. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('messages_conversation_idx').on(t.conversationId, t.id)],
);

/** `blocker_id` blocked `blocked_id`: no messages either way while the row exists. */
export const userBlocks = pgTable(
  'user_blocks',
  {
    blockerId: integer('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: integer('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] })],
);
