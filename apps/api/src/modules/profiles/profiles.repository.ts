/**
 * The only code of the profiles feature that touches the database. Lists use keyset paging on
 * (created_at desc, id desc) so a page costs the same on the first and the thousandth page; see
 * apps/api/bench/profiles-explain.ts for the plans.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import { bounties, hunters, media, posts, users, type HunterRow } from '../../db/schema';

/*
 * drizzle-kit writes `.desc()` index columns as DESC NULLS LAST while a bare ORDER BY x DESC
 * means NULLS FIRST; the ORDER BYs below spell NULLS LAST so the planner walks the index in
 * order instead of sorting every row of the hunter.
 */

/** Microsecond-exact UTC text of a timestamptz, used in cursors (JS dates stop at ms). */
const tsText = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export interface Keyset {
  /*
   * drizzle-kit writes `.desc()` index columns as DESC NULLS LAST while a bare ORDER BY x DESC
   * means NULLS FIRST; the ORDER BYs below spell NULLS LAST so the planner walks the index in
   * order instead of sorting every row of the hunter.
   */

  /** Microsecond-exact ISO timestamp of the cursor row. */
  ts: string;
  id: number;
  /**
   * Which rows of this table come after the cursor: 'by-id' those with (created_at, id) below
   * the cursor's; 'strict' those created before it; 'inclusive' those created before or at it.
   */
  mode: 'by-id' | 'strict' | 'inclusive';
}

function keysetWhere(alias: string, k: Keyset | undefined): SQL {
  if (!k) return sql``;
  const created = sql.raw(`${alias}.created_at`);
  const id = sql.raw(`${alias}.id`);
  switch (k.mode) {
    case 'by-id':
      return sql` and (${created}, ${id}) < (${k.ts}::timestamptz, ${k.id})`;
    case 'strict':
      return sql` and ${created} < ${k.ts}::timestamptz`;
    case 'inclusive':
      return sql` and ${created} <= ${k.ts}::timestamptz`;
  }
}

export interface HunterWithHandle extends HunterRow {
  handle: string | null;
}

/** One hunter with its user's handle, by any condition on hunters or users. */
async function findHunterWhere(db: DbOrTx, where: SQL): Promise<HunterWithHandle | undefined> {
  const rows = await db
    .select({
      id: hunters.id,
      userId: hunters.userId,
      stagename: hunters.stagename,
      bio: hunters.bio,
      banner: hunters.banner,
      picture: hunters.picture,
      createdAt: hunters.createdAt,
      handle: users.handle,
    })
    .from(hunters)
    .innerJoin(users, eq(users.id, hunters.userId))
    .where(where)
    .limit(1);
  return rows[0];
}

export function findHunterByHandle(db: DbOrTx, handle: string) {
  return findHunterWhere(db, sql`lower(${users.handle}) = lower(${handle})`);
}

export function findHunterById(db: DbOrTx, hunterId: number) {
  return findHunterWhere(db, eq(hunters.id, hunterId));
}

export function findHunterByUserId(db: DbOrTx, userId: number) {
  return findHunterWhere(db, eq(hunters.userId, userId));
}

export interface StatsRow {
  posts: number;
  claims: number;
  votes: number;
}

/** Index-only counts: posts_hunter_feed_idx and claims_hunter_feed_idx (which carries votes). */
export function hunterStatsQuery(hunterId: number): SQL {
  return sql`select
      (select count(*) from posts p where p.hunter_id = ${hunterId}) as posts,
      c.claims, c.votes
    from (select count(*) as claims, coalesce(sum(votes), 0) as votes
          from claims where hunter_id = ${hunterId}) c`;
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
        ${tsText(sql`p.created_at`)} as ts
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

export interface ClaimRowOut {
  id: number;
  bounty_id: number;
  title: string;
  round_number: number;
  end_date: Date | string | null;
  hunter_id: number;
  handle: string | null;
  stagename: string | null;
  picture: string | null;
  media: string;
  votes: number;
  created_at: Date | string;
  ts: string;
  rank: unknown;
}

/**
 * A hunter's claims, newest first, each with its rank in its round: 1 + the claims of the same
 * round with more votes + those with as many votes created earlier (CONTRACT.md: ties go to the
 * earlier claim). Two counts rather than one OR so each is a range of claims_round_rank_idx.
 */
export function claimsPageQuery(hunterId: number, limit: number, after?: Keyset): SQL {
  return sql`select c.id, c.bounty_id, b.title, c.round_number, r.end_date, c.hunter_id,
        u.handle, h.stagename, h.picture, c.media, c.votes, c.created_at,
        ${tsText(sql`c.created_at`)} as ts,
        1 + (select count(*) from claims c2
             where c2.bounty_id = c.bounty_id and c2.round_number = c.round_number
               and c2.votes > c.votes)
          + (select count(*) from claims c3
             where c3.bounty_id = c.bounty_id and c3.round_number = c.round_number
               and c3.votes = c.votes and (c3.created_at, c3.id) < (c.created_at, c.id)) as rank
      from (select * from claims c
            where c.hunter_id = ${hunterId}${keysetWhere('c', after)}
            order by c.created_at desc nulls last, c.id desc nulls last
            limit ${limit}) c
      join bounties b on b.id = c.bounty_id
      join hunters h on h.id = c.hunter_id
      join users u on u.id = h.user_id
      left join rounds r on r.bounty_id = c.bounty_id and r.number = c.round_number
      order by c.created_at desc, c.id desc`;
}

export function listClaims(
  db: DbOrTx,
  hunterId: number,
  limit: number,
  after?: Keyset,
): Promise<ClaimRowOut[]> {
  return queryRows<ClaimRowOut>(db, claimsPageQuery(hunterId, limit, after));
}

export async function insertPost(
  db: DbOrTx,
  values: { hunterId: number; bountyId: number | null; file: string; text: string | null },
): Promise<PostRowOut> {
  const [row] = await queryRows<PostRowOut>(
    db,
    sql`insert into ${posts} (hunter_id, bounty_id, file, text)
      values (${values.hunterId}, ${values.bountyId}, ${values.file}, ${values.text})
      returning id, hunter_id, bounty_id, file, text, created_at, ${tsText(sql`created_at`)} as ts`,
  );
  return row!;
}

export async function bountyExists(db: DbOrTx, bountyId: number): Promise<boolean> {
  const rows = await db
    .select({ id: bounties.id })
    .from(bounties)
    .where(eq(bounties.id, bountyId))
    .limit(1);
  return rows.length > 0;
}

export interface MediaInfo {
  key: string;
  ownerId: number;
  kind: string;
  visibility: string;
  status: string;
}

export async function findMedia(db: DbOrTx, key: string): Promise<MediaInfo | undefined> {
  const rows = await db
    .select({
      key: media.key,
      ownerId: media.ownerId,
      kind: media.kind,
      visibility: media.visibility,
      status: media.status,
    })
    .from(media)
    .where(eq(media.key, key))
    .limit(1);
  return rows[0];
}

export async function setBanner(db: DbOrTx, hunterId: number, banner: string): Promise<void> {
  await db.update(hunters).set({ banner }).where(eq(hunters.id, hunterId));
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

/** `%` and `_` in a search term match themselves. */
export function likeEscape(term: string): string {
  return term.replace(/[\\%_]/g, (m) => `\\${m}`);
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
  const pattern = opts.term ? `%${likeEscape(opts.term.toLowerCase())}%` : undefined;
  const filter = pattern
    ? sql` and (lower(u.handle) like ${pattern} or lower(h.stagename) like ${pattern})`
    : sql``;
  const after = opts.afterHandle ? sql` and lower(u.handle) > ${opts.afterHandle}` : sql``;
  return sql`select pg.*,
        (select count(*) from posts p where p.hunter_id = pg.id) as posts,
        cs.claims, cs.votes
      from (select h.id, h.user_id, u.handle, h.stagename, h.picture, h.bio
            from users u join hunters h on h.user_id = u.id
            where u.handle is not null${filter}${after}
            order by lower(u.handle)
            limit ${opts.limit}) pg
      cross join lateral (select count(*) as claims, coalesce(sum(c.votes), 0) as votes
                          from claims c where c.hunter_id = pg.id) cs
      order by lower(pg.handle)`;
}

export function listDirectory(db: DbOrTx, opts: DirectoryOptions): Promise<DirectoryRow[]> {
  return queryRows<DirectoryRow>(db, directoryPageQuery(opts));
}
