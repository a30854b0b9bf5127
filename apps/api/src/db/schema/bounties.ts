import { sql } from 'drizzle-orm';
import {
  customType,
  index,
  integer,
  pgSchema,
  pgTable,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { hunters } from './hunters';
import { users } from './users';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const bounties = pgTable(
  'bounties',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    /** Silver held from the poster and paid to the winner. */
    amount: integer('amount').notNull().default(0),
    mediaType: integer('media_type').notNull().default(1),
    roundCount: integer('round_count').notNull().default(1),
    status: text('status').notNull().default('open'), // open | decided
    winnerClaimId: integer('winner_claim_id'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    /** Hidden by a moderator (reports): out of every listing but its owner's and admins'. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    search: tsvector('search').generatedAlwaysAs(sql`to_tsvector('simple', title)`),
  },
  (t) => [
    index('bounties_search_idx').using('gin', t.search),
    index('bounties_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('bounties_user_idx').on(t.userId),
  ],
);

/**
 * The feed search's prefix index (docs/decisions/0019-feed-search-prefix-index.md): one row per
 * bounty and per prefix of a lexeme of its title, with ts_rank(search, 'prefix':*) worked out
 * when the bounty is written, so a one-word search is a walk of the index in feed order
 * (rank, then recency) that stops after one page. Kept by triggers on bounties (migration
 * 0007); outside the public schema so backups skip it (a restore fills it again).
 */
export const searchSchema = pgSchema('search');

/** The columns after the key of both search tables: the term's rank and the bounty's order. */
const rankedBounty = () => ({
  rank: real('rank').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  bountyId: integer('bounty_id')
    .notNull()
    .references(() => bounties.id, { onDelete: 'cascade' }),
});

export const bountyPrefixes = searchSchema.table(
  'bounty_prefixes',
  {
    prefix: text('prefix').notNull(),
    ...rankedBounty(),
  },
  (t) => [
    index('bounty_prefixes_feed_idx').on(
      t.prefix,
      t.rank.desc(),
      t.createdAt.desc(),
      t.bountyId.desc(),
    ),
    index('bounty_prefixes_bounty_idx').on(t.bountyId),
  ],
);

/**
 * The feed search's index for two words (docs/decisions/0028-two-word-search-pairs.md): one row
 * per bounty and per pair of prefixes (3 letters or more, lower-case ASCII, neither a prefix of
 * the other, prefix_a < prefix_b in byte order) of two lexemes of its title, with
 * ts_rank(search, 'prefix_a':* & 'prefix_b':*) worked out when the bounty is written. A
 * two-word search is then a walk of the index in feed order, as a one-word search walks
 * bounty_prefixes. Kept by triggers on bounties (migration 0008); not backed up.
 */
export const bountyPrefixPairs = searchSchema.table(
  'bounty_prefix_pairs',
  {
    prefixA: text('prefix_a').notNull(),
    prefixB: text('prefix_b').notNull(),
    ...rankedBounty(),
  },
  (t) => [
    index('bounty_prefix_pairs_feed_idx').on(
      t.prefixA,
      t.prefixB,
      t.rank.desc(),
      t.createdAt.desc(),
      t.bountyId.desc(),
    ),
    index('bounty_prefix_pairs_bounty_idx').on(t.bountyId),
  ],
);

export const rounds = pgTable(
  'rounds',
  {
    id: serial('id').primaryKey(),
    bountyId: integer('bounty_id')
      .notNull()
      .references(() => bounties.id, { onDelete: 'cascade' }),
    /** The round's number within its bounty (CONTRACT.md: roundId). */
    number: integer('number').notNull(),
    endDate: timestamp('end_date', { withTimezone: true, mode: 'date' }),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rounds_bounty_number_idx').on(t.bountyId, t.number),
    index('rounds_open_end_idx')
      .on(t.endDate)
      .where(sql`closed_at is null`),
  ],
);

export const claims = pgTable(
  'claims',
  {
    id: serial('id').primaryKey(),
    bountyId: integer('bounty_id')
      .notNull()
      .references(() => bounties.id, { onDelete: 'cascade' }),
    roundNumber: integer('round_number').notNull(),
    hunterId: integer('hunter_id')
      .notNull()
      .references(() => hunters.id),
    media: text('media').notNull(),
    votes: integer('votes').notNull().default(0),
    /** Hidden by a moderator (reports): out of every listing but its owner's and admins'. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('claims_round_rank_idx').on(t.bountyId, t.roundNumber, t.votes.desc(), t.createdAt, t.id),
    // The profile feed pages by (created_at, id); votes rides along so a hunter's vote total
    // is an index-only scan.
    index('claims_hunter_feed_idx').on(t.hunterId, t.createdAt.desc(), t.id.desc(), t.votes),
    // The operations dashboard counts today's claims.
    index('claims_created_idx').on(t.createdAt),
  ],
);

export const votes = pgTable(
  'votes',
  {
    id: serial('id').primaryKey(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claims.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    value: integer('value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('votes_claim_user_idx').on(t.claimId, t.userId),
    // The operations dashboard counts today's votes; a user's page lists their recent votes.
    index('votes_created_idx').on(t.createdAt),
    index('votes_user_idx').on(t.userId, t.id.desc()),
  ],
);

export const posts = pgTable(
  'posts',
  {
    id: serial('id').primaryKey(),
    hunterId: integer('hunter_id')
      .notNull()
      .references(() => hunters.id, { onDelete: 'cascade' }),
    bountyId: integer('bounty_id').references(() => bounties.id, { onDelete: 'set null' }),
    file: text('file').notNull(),
    text: text('text'),
    /** Hidden by a moderator (reports): out of every listing but its owner's and admins'. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('posts_hunter_feed_idx').on(t.hunterId, t.createdAt.desc(), t.id.desc())],
);

/**
 * Silver a vote earns the claim's hunter, waiting to be credited to the hunter's balance by
 * the settle-earnings job (modules/bounties). Written by the vote itself; no foreign keys on
 * purpose: a key check would lock the hunter's user row, the one row every vote on a popular
 * hunter's claims would otherwise queue on (docs/decisions/0006-votes-in-one-statement.md).
 */
export const voteEarnings = pgTable('vote_earnings_pending', {
  id: serial('id').primaryKey(),
  /** The hunter's user id. */
  userId: integer('user_id').notNull(),
  claimId: integer('claim_id').notNull(),
  amount: integer('amount').notNull(),
  /** The voter's plan when the vote was cast: what the silver is worth (payouts ledger). */
  planIndex: integer('plan_index'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
