/**
 * The profiles module's table is posts; hunters and users are read through users.read.ts and
 * claims through bounties.read.ts, whose SQL fragments keep the profile page, the profile
 * feed and the directory single statements. Lists use keyset paging on
 * (created_at desc, id desc) so a page costs the same on the first and the thousandth page; see
 * apps/api/bench/profiles-explain.ts for the plans.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import { keysetWhere, type Keyset } from '../../db/keyset';
import { posts } from '../../db/schema';
import { microsecondKey } from '../../lib/dates';
import { hunterClaimTotals } from '../bounties/bounties.read';
import { hunterCardJoin, hunterDirectoryPage } from '../users/users.read';

export interface StatsRow {
  posts: number;
  claims: number;
  votes: number;
}

/** Post, claim and vote counts of a hunter in one statement (claims: bounties' fragment). */
export function hunterStatsQuery(hunterId: number): SQL {
  return sql`select
      (select count(*) from posts p where p.hunter_id = ${hunterId}) as posts,
      c.claims, c.votes
    from (${hunterClaimTotals(sql`${hunterId}`)}) c`;
}

export async function hunterStats(db: DbOrTx, hunterId: number): Promise<StatsRow> {
  const [row] = await queryRows<{ posts: unknown; claims: unknown; votes: unknown }>(
    db,
    hunterStatsQuery(hunterId),
  );
  return { posts: Number(row!.posts), claims: Number(row!.claims), votes: Number(row!.votes) };
}

export interface PostRowOut {
  id: number;
  hunter_id: number;
  bounty_id: number | null;
  file: string;
  text: string | null;
  created_at: Date | string;
  ts: string;
  hidden?: boolean | string | null;
}

export function postsPageQuery(
  hunterId: number,
  limit: number,
  after?: Keyset,
  includeHidden = false,
): SQL {
  // Hidden posts: only for the hunter and admins (a filter on rows the index walk reads).
  const visible = includeHidden ? sql`` : sql` and p.hidden_at is null`;
  return sql`select p.id, p.hunter_id, p.bounty_id, p.file, p.text, p.created_at,
        ${microsecondKey(sql`p.created_at`)} as ts, p.hidden_at is not null as hidden
      from posts p
      where p.hunter_id = ${hunterId}${keysetWhere('p', after)}${visible}
      order by p.created_at desc nulls last, p.id desc nulls last
      limit ${limit}`;
}

export function listPosts(
  db: DbOrTx,
  hunterId: number,
  limit: number,
  after?: Keyset,
  includeHidden = false,
): Promise<PostRowOut[]> {
  return queryRows<PostRowOut>(db, postsPageQuery(hunterId, limit, after, includeHidden));
}

export async function insertPost(
  db: DbOrTx,
  values: { hunterId: number; bountyId: number | null; file: string; text: string | null },
): Promise<PostRowOut> {
  const [row] = await queryRows<PostRowOut>(
    db,
    sql`insert into ${posts} (hunter_id, bounty_id, file, text)
      values (${values.hunterId}, ${values.bountyId}, ${values.file}, ${values.text})
      returning id, hunter_id, bounty_id, file, text, created_at, ${microsecondKey(sql`created_at`)} as ts`,
  );
  return row!;
}

export interface DirectoryRow {
  id: number;
  user_id: number;
  handle: string;
  stagename: string | null;
  picture: string | null;
  bio: string | null;
  posts: unknown;
  claims: unknown;
  votes: unknown;
  hidden?: boolean | string | null;
}

/**
 * Hunters with a handle, alphabetical by handle (users_handle_lower_idx), optionally filtered by
 * a case-insensitive substring of the handle or stage name. The page is chosen first, then the
 * stats are counted for its rows only.
 */
export interface DirectoryOptions {
  term?: string;
  afterHandle?: string;
  limit: number;
  /** Admins: hidden hunters and suspended users too. */
  includeHidden?: boolean;
}

export function directoryPageQuery(opts: DirectoryOptions): SQL {
  return sql`select pg.*,
        (select count(*) from posts p where p.hunter_id = pg.id) as posts,
        cs.claims, cs.votes
      from (${hunterDirectoryPage(opts)}) pg
      cross join lateral (${hunterClaimTotals(sql`pg.id`)}) cs
      order by lower(pg.handle)`;
}

export function listDirectory(db: DbOrTx, opts: DirectoryOptions): Promise<DirectoryRow[]> {
  return queryRows<DirectoryRow>(db, directoryPageQuery(opts));
}

/** Hides (a time) or shows (null) a post; hidden_at before and after, undefined when unknown. */
export async function setPostHiddenAt(
  db: DbOrTx,
  id: number,
  at: Date | null,
): Promise<{ before: Date | null; after: Date | null } | undefined> {
  const [old] = await db
    .select({ hiddenAt: posts.hiddenAt })
    .from(posts)
    .where(eq(posts.id, id))
    .for('update');
  if (!old) return undefined;
  const after = at ? (old.hiddenAt ?? at) : null;
  await db.update(posts).set({ hiddenAt: after }).where(eq(posts.id, id));
  return { before: old.hiddenAt, after };
}

export interface PostPreviewRow {
  id: number;
  text: string | null;
  file: string;
  handle: string | null;
  user_id: number;
  hidden: boolean | string;
}

/** What the moderation queue shows of posts: text, file, the hunter's handle. */
export function postPreviews(db: DbOrTx, ids: number[]): Promise<PostPreviewRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return queryRows<PostPreviewRow>(
    db,
    sql`select p.id, p.text, p.file, u.handle, h.user_id, p.hidden_at is not null as hidden
      from posts p ${hunterCardJoin(sql`p.hunter_id`)}
      where p.id in ${ids}`,
  );
}
