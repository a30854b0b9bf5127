/**
 * The users module's read interface: the users and hunters tables belong to this module
 * (see users.repository.ts for its writes), and these lookups are how other modules read
 * them. Functions take the caller's database or transaction, so a lookup can run (and lock)
 * inside another module's transaction.
 *
 * Hot single-statement reads that show a hunter next to another module's rows (the claim
 * page, the bounty page, the feed) join through `hunterCardJoin` rather than a second query.
 */
import {
  and,
  eq,
  gt,
  isNotNull,
  isNull,
  lt,
  lte,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type DbOrTx } from '../../db/client';
import { hunters, users, type HunterRow, type UserRow } from '../../db/schema';

export type { HunterRow, UserRow };

export function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1)
    .then((r) => r[0]);
}

export function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(eq(users.id, id))
    .limit(1)
    .then((r) => r[0]);
}

/** The user's row locked for the caller's transaction (FOR UPDATE): money changes serialise on it. */
export function lockUser(tx: DbOrTx, userId: number): Promise<UserRow | undefined> {
  return tx
    .select()
    .from(users)
    .where(eq(users.id, userId))
    .for('update')
    .then((r) => r[0]);
}

export function isHandleTakenByOther(db: DbOrTx, handle: string, userId: number) {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.handle}) = lower(${handle})`, sql`${users.id} <> ${userId}`))
    .limit(1)
    .then((r) => r.length > 0);
}

export function isEmailTakenByOther(db: DbOrTx, email: string, userId: number) {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, sql`${users.id} <> ${userId}`))
    .limit(1)
    .then((r) => r.length > 0);
}

/**
 * The hunter row of a user (the one hunter-by-user lookup). `lock: 'no key update'`
 * serialises that hunter's writes in the caller's transaction (one claim per round).
 */
export function findHunterByUserId(
  db: DbOrTx,
  userId: number,
  lock?: 'no key update',
): Promise<HunterRow | undefined> {
  const q = db.select().from(hunters).where(eq(hunters.userId, userId)).limit(1);
  return (lock ? q.for(lock) : q).then((r) => r[0]);
}

/** The user behind a hunter id. */
export function hunterUserId(db: DbOrTx, hunterId: number): Promise<number | undefined> {
  return db
    .select({ userId: hunters.userId })
    .from(hunters)
    .where(eq(hunters.id, hunterId))
    .limit(1)
    .then((r) => r[0]?.userId);
}

export interface HunterWithHandle extends HunterRow {
  handle: string | null;
  /** The hunter's account is suspended: their profile is hidden like a moderated one. */
  suspendedAt: Date | null;
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
      hiddenAt: hunters.hiddenAt,
      handle: users.handle,
      suspendedAt: users.suspendedAt,
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

export function findHunterWithHandleByUserId(db: DbOrTx, userId: number) {
  return findHunterWhere(db, eq(hunters.userId, userId));
}

/**
 * SQL fragment for single-statement reads of other modules: joins the hunter `hunterId` points
 * at (alias `h`) and its user (alias `u`); `HUNTER_CARD_COLUMNS` then selects what a claim
 * shows of its hunter.
 */
export function hunterCardJoin(hunterId: SQL): SQL {
  return sql`${hunterJoin(hunterId)}
  join users u on u.id = h.user_id`;
}

/** SQL fragment: joins the hunter `hunterId` points at (alias `h`; `h.user_id` is its user). */
export function hunterJoin(hunterId: SQL): SQL {
  return sql`join hunters h on h.id = ${hunterId}`;
}

/**
 * SQL condition: the user row `alias` (e.g. `u`) is not suspended. Suspended users' content is
 * hidden like moderated content wherever a statement already joins their row.
 */
export function notSuspended(alias: SQL): SQL {
  return sql`${alias}.suspended_at is null`;
}

/** SQL condition: the hunter row `alias` (e.g. `h`) is not hidden by moderators. */
export function hunterNotHidden(alias: SQL): SQL {
  return sql`${alias}.hidden_at is null`;
}

/** SQL condition on users `u`: an active member (role 1, membership valid after `now`). */
export function activeMember(now: SQL): SQL {
  return sql`(u.role & 1) <> 0
        and u.active > ${now}`;
}

/** SQL set-list item on users `u`: the user cast `n` more votes. */
export function countVotesCast(n: SQL): SQL {
  return sql`votes = u.votes + ${n}`;
}

export const HUNTER_CARD_COLUMNS = sql`h.id as hunter_id, u.handle, h.stagename, h.picture`;

/** `%` and `_` in a search term match themselves. */
export function likeEscape(term: string): string {
  return term.replace(/[\\%_]/g, (m) => `\\${m}`);
}

/**
 * SQL fragment for the hunters directory (one statement with the profiles module's counts):
 * hunters with a handle, alphabetical by handle (users_handle_lower_idx), optionally filtered
 * by a case-insensitive substring of the handle or stage name, after `afterHandle` (lower
 * case). Rows: id, user_id, handle, stagename, picture, bio.
 */
export function hunterDirectoryPage(opts: {
  term?: string;
  afterHandle?: string;
  limit: number;
  /** Admins: hidden hunters and suspended users too. */
  includeHidden?: boolean;
}): SQL {
  const pattern = opts.term ? `%${likeEscape(opts.term.toLowerCase())}%` : undefined;
  const filter = pattern
    ? sql` and (lower(u.handle) like ${pattern} or lower(h.stagename) like ${pattern})`
    : sql``;
  const after = opts.afterHandle ? sql` and lower(u.handle) > ${opts.afterHandle}` : sql``;
  const visible = opts.includeHidden
    ? sql``
    : sql` and h.hidden_at is null and u.suspended_at is null`;
  return sql`select h.id, h.user_id, u.handle, h.stagename, h.picture, h.bio,
              h.hidden_at is not null as hidden
            from users u join hunters h on h.user_id = u.id
            where u.handle is not null${filter}${after}${visible}
            order by lower(u.handle)
            limit ${opts.limit}`;
}

/**
 * Fragment for auth's session lookup (a prepared statement every authenticated request runs):
 * the users table joined on a session's user id, the role it reads, and the condition that
 * the user is not suspended.
 */
export const sessionUserJoin = {
  table: users,
  on: (userId: AnyPgColumn) => eq(users.id, userId),
  role: users.role,
  /** A suspended user's sessions stop working at once, even one made while suspending. */
  notSuspended: isNull(users.suspendedAt),
};

/**
 * For billing's renewal job: members whose renewal is due: a card on file, `active` within `lead` from now but not
 * ended before `oldest`, not lapsed after the last attempt, and no retry scheduled later.
 */
export function findDueRenewals(
  db: DbOrTx,
  opts: {
    now: Date;
    dueBefore: Date;
    oldest: Date;
    maxFailures: number;
    skip: number[];
    limit: number;
  },
): Promise<{ id: number }[]> {
  return db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`(${users.role} & 1) <> 0`,
        isNotNull(users.cardToken),
        isNotNull(users.membership),
        lte(users.active, opts.dueBefore),
        gt(users.active, opts.oldest),
        lt(users.renewalFailures, opts.maxFailures),
        or(isNull(users.nextRenewalAttemptAt), lte(users.nextRenewalAttemptAt, opts.now)),
        opts.skip.length > 0 ? notInArray(users.id, opts.skip) : undefined,
      ),
    )
    .orderBy(users.active)
    .limit(opts.limit);
}

/** Handles of these users (the moderation queue's previews). */
export async function handlesOf(db: DbOrTx, ids: number[]): Promise<Map<number, string | null>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db
    .select({ id: users.id, handle: users.handle })
    .from(users)
    .where(sql`${users.id} in ${unique}`);
  return new Map(rows.map((r) => [r.id, r.handle]));
}

/** E-mail addresses of these users, for lists that show who did something (the audit log). */
export async function emailsOf(db: DbOrTx, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`${users.id} in ${unique}`);
  return new Map(rows.map((r) => [r.id, r.email]));
}

/** The operations dashboard: all users, and members whose membership runs, by plan. */
export async function userTotals(
  db: DbOrTx,
  now: Date,
): Promise<{ users: number; activeByPlan: Map<number, number> }> {
  const [all] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  const plans = await db
    .select({ plan: users.membership, n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(gt(users.active, now), isNotNull(users.membership)))
    .groupBy(users.membership);
  return {
    users: Number(all?.n ?? 0),
    activeByPlan: new Map(plans.map((p) => [Number(p.plan), Number(p.n)])),
  };
}

/** Who these users are, for the admin tables that list them (the identity review queue). */
export async function contactsOf(
  db: DbOrTx,
  ids: number[],
): Promise<
  Map<
    number,
    { email: string; handle: string | null; firstName: string | null; lastName: string | null }
  >
> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      handle: users.handle,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(sql`${users.id} in ${unique}`);
  return new Map(rows.map(({ id, ...r }) => [id, r]));
}

/**
 * The admin console's user search, newest first (id desc), keyset paged by `beforeId`. `q` is
 * matched as an id (when it is one) or as the start of the e-mail or handle: `lower(x) like
 * 'q%'` on users_email_prefix_idx / users_handle_prefix_idx (text_pattern_ops), the term
 * lower-cased and LIKE-escaped so the prefix stays an index range.
 */
export function searchUsers(
  db: DbOrTx,
  opts: { q?: string; beforeId?: number; limit: number },
): Promise<UserRow[]> {
  const where: SQL[] = [];
  const q = opts.q?.trim();
  if (q) {
    const prefix = `${likeEscape(q.toLowerCase())}%`;
    const match: SQL[] = [sql`lower(${users.email}) like ${prefix}`];
    if (!q.includes('@')) match.push(sql`lower(${users.handle}) like ${prefix}`);
    const asId = /^\d{1,10}$/.test(q) ? Number(q) : NaN;
    if (asId >= 1 && asId <= 2_147_483_647) match.push(eq(users.id, asId));
    where.push(or(...match)!);
  }
  if (opts.beforeId !== undefined) where.push(lt(users.id, opts.beforeId));
  return db
    .select()
    .from(users)
    .where(where.length ? and(...where) : undefined)
    .orderBy(sql`${users.id} desc`)
    .limit(opts.limit);
}

/** What the payouts module needs of hunters: tax, identity and bank columns (account number encrypted). */
export async function payoutColumnsOf(db: DbOrTx, ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  return db
    .select({
      id: users.id,
      email: users.email,
      handle: users.handle,
      firstName: users.firstName,
      lastName: users.lastName,
      street: users.street,
      city: users.city,
      state: users.state,
      zip: users.zip,
      ssnEnc: users.ssnEnc,
      ssnLastFour: users.ssnLastFour,
      identityStatus: users.identityStatus,
      bankName: users.bankName,
      bankAccountType: users.bankAccountType,
      bankRoutingNumber: users.bankRoutingNumber,
      bankAccountEnc: users.bankAccountEnc,
      bankAccountLastFour: users.bankAccountLastFour,
    })
    .from(users)
    .where(sql`${users.id} in ${unique}`);
}

export interface Peer {
  userId: number;
  handle: string | null;
  /** The hunter's picture, or null (members have none). */
  picture: string | null;
  role: number;
  suspended: boolean;
}

/** Who these users are to someone messaging them: handle, picture, role. */
export async function peersOf(db: DbOrTx, ids: number[]): Promise<Map<number, Peer>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db
    .select({
      userId: users.id,
      handle: users.handle,
      picture: hunters.picture,
      role: users.role,
      suspendedAt: users.suspendedAt,
    })
    .from(users)
    .leftJoin(hunters, eq(hunters.userId, users.id))
    .where(sql`${users.id} in ${unique}`);
  return new Map(
    rows.map(({ suspendedAt, ...r }) => [r.userId, { ...r, suspended: suspendedAt !== null }]),
  );
}

/** A user by handle, any letter case. */
export async function findPeerByHandle(db: DbOrTx, handle: string): Promise<Peer | undefined> {
  const [row] = await db
    .select({ userId: users.id })
    .from(users)
    .where(sql`lower(${users.handle}) = lower(${handle})`)
    .limit(1);
  return row ? (await peersOf(db, [row.userId])).get(row.userId) : undefined;
}
