/**
 * The feed search (POST /bounty/search): one page of bounties by prefix full-text on titles,
 * relevance then recency, keyset-paged; prepared once per combination of options.
 *
 * A one-word ASCII term ('cat:*') reads search.bounty_prefixes (migration 0007), a two-word
 * one of 3 letters or more each ('cat:* & dog:*') search.bounty_prefix_pairs (migration 0008);
 * their indexes are in the feed's order, so the page costs the same whatever the number of
 * matches, and hold only bounties that are not hidden (migration 0009), so a walk reads its
 * index alone and answers hits (id, rank, cursor key); bountyRows reads the columns of the hits
 * whose items are not kept. Other terms (three words or more, shorter words, other scripts)
 * rank every match with ts_rank; each gives the same rows in the same order as ranking every
 * match (docs/decisions/0019-feed-search-prefix-index.md, 0028-two-word-search-pairs.md,
 * 0031-search-walks-read-the-index-alone.md).
 */
import { sql, type SQL } from 'drizzle-orm';
import { preparedRows, type DbOrTx } from '../../db/client';
import { microsecondKey } from '../../lib/dates';

/** A bounty a search found, with what its cursor needs. */
export interface SearchHit {
  id: number;
  /** created_at with microseconds, UTC, for the cursor. */
  created_key: string;
  rank: number | string | null;
}

/** A hit with the bounty's own columns (what presentBounty needs). */
export interface SearchRow extends SearchHit {
  user_id: number;
  title: string;
  amount: number;
  media_type: number;
  round_count: number;
  status: string;
  winner_claim_id: number | null;
  created_at: Date | string;
}

/** Whether a hit carries its bounty's columns (the ranked and newest-first paths do). */
export const isSearchRow = (hit: SearchHit): hit is SearchRow => 'title' in hit;

export interface SearchCursor {
  /** ts_rank of the last row (term searches only). */
  r?: number;
  /** created_at of the last row, microsecond text. */
  c: string;
  i: number;
}

const SEARCH_CREATED_KEY = microsecondKey(sql`b.created_at`);
const WALK_CREATED_KEY = microsecondKey(sql`t.created_at`);
const SEARCH_BASE = sql`b.id, b.user_id, b.title, b.amount, b.media_type, b.round_count, b.status,
  b.winner_claim_id, b.created_at, ${SEARCH_CREATED_KEY} as created_key`;
const searchStmts = new Map<
  string,
  ReturnType<typeof preparedRows<SearchRow>> | ReturnType<typeof preparedRows<SearchHit>>
>();

/**
 * The row limit written into the statement, not a parameter: with `limit $n` PostgreSQL
 * estimates a generic plan for an unknown limit (a tenth of the matches), finds it dearer than a
 * plan for the actual term and so plans every execution again (0.3–2 ms each, a third of the
 * one-word search's database time at 1,000,000 claims). With the limit written in, the generic
 * plan is kept after the first executions (decision 0025). Pages are a few sizes, so a few
 * statements.
 */
function limitSql(limit: number): SQL {
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new Error(`search: limit ${limit} out of range`);
  return sql.raw(String(limit));
}

/**
 * The word of a one-word tsquery ('cat:*' → 'cat') when PostgreSQL's 'simple' parser keeps it
 * as one lexeme equal to itself (lower-case ASCII letters and digits), else null.
 */
export function singlePrefix(tsquery: string): string | null {
  const m = /^([a-z0-9]+):\*$/.exec(tsquery);
  return m ? m[1]! : null;
}

/** The shortest prefix search.bounty_prefix_pairs holds (migration 0008). */
export const PAIR_PREFIX_MIN = 3;

/**
 * The two prefixes of a two-word tsquery ('dog:* & cat:*' → ['cat', 'dog'], byte order) when
 * search.bounty_prefix_pairs holds them: each a one-lexeme ASCII word (as singlePrefix) of
 * PAIR_PREFIX_MIN characters or more, neither a prefix of the other; else null.
 */
export function prefixPair(tsquery: string): [string, string] | null {
  const m = /^([a-z0-9]+):\* & ([a-z0-9]+):\*$/.exec(tsquery);
  if (!m) return null;
  // Byte order: for ASCII, JavaScript's code-unit order is PostgreSQL's COLLATE "C".
  const [a, b] = [m[1]!, m[2]!].sort() as [string, string];
  if (a.length < PAIR_PREFIX_MIN || b.length < PAIR_PREFIX_MIN || b.startsWith(a)) return null;
  return [a, b];
}

/** The search tables walked in feed order, and the columns that pick a term's rows. */
const WALKS = {
  prefix: { table: sql`search.bounty_prefixes`, keys: ['prefix'] },
  pair: { table: sql`search.bounty_prefix_pairs`, keys: ['prefix_a', 'prefix_b'] },
} as const;

/**
 * The one-word (bounty_prefixes_feed_idx) or two-word (bounty_prefix_pairs_feed_idx)
 * statement: a walk of the index from the cursor, one page long, reading the index alone (an
 * index-only scan): the tables hold only bounties that are not hidden (migration 0009), and the
 * hits carry no bounty columns. Placeholders are named after the key columns.
 */
function walkStmt(kind: keyof typeof WALKS, after: boolean, exclude: boolean, limit: number) {
  const key = `bounties_${kind}_${Number(after)}${Number(exclude)}_${limit}`;
  const kept = searchStmts.get(key);
  if (kept) return kept;
  const { table, keys } = WALKS[kind];
  const p = (name: string) => sql.placeholder(name);
  // The two-word walk's keys as one-row subqueries: PostgreSQL then finds its generic plan as
  // cheap as a custom one and keeps it, instead of planning every execution (the same index
  // walk; ~6 % more new two-word terms a second at 1,000,000 claims, decision 0030). The
  // one-word walk already keeps its generic plan.
  const keyOf = (k: string) => (kind === 'pair' ? sql`(select ${p(k)}::text)` : p(k));
  const where: SQL[] = keys.map((k) => sql`t.${sql.identifier(k)} = ${keyOf(k)}`);
  if (exclude) where.push(sql`t.bounty_id <> ${p('excludeId')}`);
  if (after)
    where.push(
      sql`(t.rank, t.created_at, t.bounty_id) < (${p('r')}::real, ${p('c')}::timestamptz, ${p('i')}::int4)`,
    );
  // t.rank is ts_rank(b.search, the term's tsquery) and t.created_at is b.created_at, both
  // kept by triggers (migrations 0007, 0008, 0009).
  const stmt = preparedRows<SearchHit>(
    key,
    sql`select t.bounty_id as id, ${WALK_CREATED_KEY} as created_key, t.rank as rank
      from ${table} t
      where ${sql.join(where, sql` and `)}
      order by t.rank desc nulls last, t.created_at desc nulls last, t.bounty_id desc nulls last
      limit ${limitSql(limit)}`,
  );
  searchStmts.set(key, stmt);
  return stmt;
}

const bountyRowsStmt = preparedRows<SearchRow>(
  'bounties_search_rows',
  sql`select ${SEARCH_BASE}, null as rank from bounties b
    where b.id = any(${sql.placeholder('ids')}::int4[]) and b.hidden_at is null`,
);

/**
 * The columns of the given bounties that are not hidden, for the hits of a walk whose items
 * are not kept (in no particular order; rank null, the hit has it).
 */
export async function bountyRows(db: DbOrTx, ids: number[]): Promise<SearchRow[]> {
  if (ids.length === 0) return [];
  return bountyRowsStmt(db, { ids });
}

/** The search statement for one combination of term / cursor / excluded id, prepared once. */
function searchStmt(term: boolean, after: boolean, exclude: boolean, limit: number) {
  const key = `bounties_search_${Number(term)}${Number(after)}${Number(exclude)}_${limit}`;
  const kept = searchStmts.get(key);
  if (kept) return kept;
  let stmt: ReturnType<typeof preparedRows<SearchRow>>;
  const p = (name: string) => sql.placeholder(name);
  // Hidden bounties are out of the feed for everyone (the feed is one cached page for all).
  const where: SQL[] = [sql`b.hidden_at is null`];
  if (exclude) where.push(sql`b.id <> ${p('excludeId')}`);
  if (term) {
    const q = sql`to_tsquery('simple', ${p('tsquery')})`;
    const rank = sql`ts_rank(b.search, ${q})`;
    where.push(sql`b.search @@ ${q}`);
    if (after)
      where.push(
        sql`(${rank}, b.created_at, b.id) < (${p('r')}::real, ${p('c')}::timestamptz, ${p('i')}::int4)`,
      );
    stmt = preparedRows<SearchRow>(
      key,
      sql`select ${SEARCH_BASE}, ${rank} as rank from bounties b
        where ${sql.join(where, sql` and `)}
        order by rank desc, b.created_at desc nulls last, b.id desc nulls last
        limit ${limitSql(limit)}`,
    );
  } else {
    if (after) where.push(sql`(b.created_at, b.id) < (${p('c')}::timestamptz, ${p('i')}::int4)`);
    stmt = preparedRows<SearchRow>(
      key,
      sql`select ${SEARCH_BASE}, null as rank from bounties b
        where ${sql.join(where, sql` and `)}
        -- nulls last: the order of bounties_created_idx, so the newest page is an index walk.
        order by b.created_at desc nulls last, b.id desc nulls last
        limit ${limitSql(limit)}`,
    );
  }
  searchStmts.set(key, stmt);
  return stmt;
}

/**
 * One page of bounties: with a tsquery, matches ordered by relevance then recency; without,
 * every bounty newest first. Keyset paging on (rank, created_at, id). The walks of one- and
 * two-word terms answer hits only; the other paths answer rows (isSearchRow); bountyRows gives
 * a hit's columns.
 */
export async function searchBounties(
  db: DbOrTx,
  opts: {
    tsquery: string | null;
    excludeId?: number;
    limit: number;
    after?: SearchCursor;
    /** Rank every match with ts_rank even for one or two words (the tests' reference). */
    rankAll?: boolean;
  },
): Promise<SearchHit[]> {
  const indexed = opts.tsquery && !opts.rankAll;
  const prefix = indexed ? singlePrefix(opts.tsquery!) : null;
  const pair = indexed && !prefix ? prefixPair(opts.tsquery!) : null;
  const exclude = opts.excludeId !== undefined;
  const stmt = prefix
    ? walkStmt('prefix', !!opts.after, exclude, opts.limit)
    : pair
      ? walkStmt('pair', !!opts.after, exclude, opts.limit)
      : searchStmt(!!opts.tsquery, !!opts.after, exclude, opts.limit);
  return stmt(db, {
    ...(prefix
      ? { prefix }
      : pair
        ? { prefix_a: pair[0], prefix_b: pair[1] }
        : opts.tsquery
          ? { tsquery: opts.tsquery }
          : {}),
    ...(opts.excludeId !== undefined ? { excludeId: opts.excludeId } : {}),
    ...(opts.after ? { r: opts.after.r ?? 0, c: opts.after.c, i: opts.after.i } : {}),
  });
}
