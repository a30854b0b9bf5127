/**
 * The profiles module's table is posts; hunters and users are read through users.read.ts and
 * claims through bounties.read.ts, whose SQL fragments keep the profile page, the profile
 * feed and the directory single statements. Lists use keyset paging on
 * (created_at desc, id desc) so a page costs the same on the first and the thousandth page; see
 * apps/api/bench/profiles-explain.ts for the plans.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import { keysetWhere, type Keyset } from '../../db/keyset';
import { posts } from '../../db/schema';
import { microsecondKey } from '../../lib/dates';
import { hunterClaimTotals } from '../bounties/bounties.read';
import { hunterDirectoryPage } from '../users/users.read';

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
}

export function postsPageQuery(hunterId: number, limit: number, after?: Keyset): SQL {
  return sql`select p.id, p.hunter_id, p.bounty_id, p.file, p.text, p.created_at,
        ${microsecondKey(sql`p.created_at`)} as ts
      from posts p
      where p.hunter_id = ${hunterId}${keysetWhere('p', after)}
      order by p.created_at desc nulls last, p.id desc nulls last
      limit ${limit}`;
}

export function listPosts(
  db: DbOrTx,
  hunterId: number,
  limit: number,
  after?: Keyset,
): Promise<PostRowOut[]> {
  return queryRows<PostRowOut>(db, postsPageQuery(hunterId, limit, after));
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
