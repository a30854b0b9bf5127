import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/** One row per uploaded file; the key is what clients see (CONTRACT.md "Media"). */
export const media = pgTable(
  'media',
  {
    key: text('key').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(), // image | video
    /** public: derivatives under MEDIA_URL; private: identity documents, never published. */
    visibility: text('visibility').notNull().default('public'),
    status: text('status').notNull(), // processing | ready | failed
    error: text('error'),
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width'),
    height: integer('height'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('media_owner_idx').on(t.ownerId)],
);
