/** conversations, conversation_members, messages and user_blocks: owned by the messages module. */
import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { conversationMembers, conversations, messages, userBlocks } from '../../db/schema';

export type MessageRow = typeof messages.$inferSelect;
export type MemberRow = typeof conversationMembers.$inferSelect;

export async function findConversationByPair(db: DbOrTx, a: number, b: number) {
  const [low, high] = a < b ? [a, b] : [b, a];
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.userA, low), eq(conversations.userB, high)))
    .limit(1);
  return row;
}

/** Creates the pair's conversation and both sides, or finds it when it exists (races too). */
export async function ensureConversation(db: DbOrTx, a: number, b: number, at: Date) {
  const [low, high] = a < b ? [a, b] : [b, a];
  const [created] = await db
    .insert(conversations)
    .values({ userA: low, userB: high, createdAt: at })
    .onConflictDoNothing()
    .returning({ id: conversations.id });
  if (created) {
    await db.insert(conversationMembers).values([
      { conversationId: created.id, userId: low, otherId: high },
      { conversationId: created.id, userId: high, otherId: low },
    ]);
    return created.id;
  }
  return (await findConversationByPair(db, a, b))!.id;
}

export async function findMember(db: DbOrTx, conversationId: number, userId: number) {
  const [row] = await db
    .select()
    .from(conversationMembers)
    .where(
      and(
        eq(conversationMembers.conversationId, conversationId),
        eq(conversationMembers.userId, userId),
      ),
    )
    .limit(1);
  return row;
}

export function membersOf(db: DbOrTx, conversationIds: number[]) {
  if (!conversationIds.length) return Promise.resolve([] as MemberRow[]);
  return db
    .select()
    .from(conversationMembers)
    .where(inArray(conversationMembers.conversationId, conversationIds));
}

/** My conversations, most recent message first (ones without a message last). */
export function myConversations(db: DbOrTx, userId: number, limit: number) {
  return db
    .select()
    .from(conversationMembers)
    .where(eq(conversationMembers.userId, userId))
    .orderBy(
      sql`${conversationMembers.lastMessageAt} desc nulls last`,
      desc(conversationMembers.conversationId),
    )
    .limit(limit);
}

export async function lastMessages(db: DbOrTx, conversationIds: number[]) {
  if (!conversationIds.length) return new Map<number, MessageRow>();
  const rows = await db
    .select({ m: messages })
    .from(conversations)
    .innerJoin(messages, eq(messages.id, conversations.lastMessageId))
    .where(inArray(conversations.id, conversationIds));
  return new Map(rows.map((r) => [r.m.conversationId, r.m]));
}

export async function insertMessage(
  db: DbOrTx,
  row: { conversationId: number; senderId: number; text: string; image: string | null; at: Date },
): Promise<MessageRow> {
  const [m] = await db
    .insert(messages)
    .values({
      conversationId: row.conversationId,
      senderId: row.senderId,
      text: row.text,
      image: row.image,
      createdAt: row.at,
    })
    .returning();
  await db
    .update(conversations)
    .set({ lastMessageId: m!.id, lastMessageAt: row.at })
    .where(eq(conversations.id, row.conversationId));
  // The sender has read their own message; the other side has one more unread.
  await db
    .update(conversationMembers)
    .set({
      lastMessageAt: row.at,
      lastReadId: sql`case when ${conversationMembers.userId} = ${row.senderId} then ${m!.id} else ${conversationMembers.lastReadId} end`,
      unread: sql`case when ${conversationMembers.userId} = ${row.senderId} then 0 else ${conversationMembers.unread} + 1 end`,
      unreadSince: sql`case when ${conversationMembers.userId} = ${row.senderId} then null else coalesce(${conversationMembers.unreadSince}, ${row.at}) end`,
    })
    .where(eq(conversationMembers.conversationId, row.conversationId));
  return m!;
}

/** A page of a thread: newest `limit` before `before`, returned oldest first. */
export async function threadPage(
  db: DbOrTx,
  conversationId: number,
  before: number | undefined,
  limit: number,
) {
  const rows = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        before ? lt(messages.id, before) : undefined,
      ),
    )
    .orderBy(desc(messages.id))
    .limit(limit);
  return rows.reverse();
}

/**
 * Marks the thread read up to `upTo` for the user; unread and unread_since are recounted from
 * the messages the other party sent after it. Returns the read mark now stored.
 */
export async function markRead(
  db: DbOrTx,
  conversationId: number,
  userId: number,
  upTo: number,
): Promise<number> {
  const [row] = await db
    .update(conversationMembers)
    .set({ lastReadId: sql`greatest(${conversationMembers.lastReadId}, ${upTo})` })
    .where(
      and(
        eq(conversationMembers.conversationId, conversationId),
        eq(conversationMembers.userId, userId),
      ),
    )
    .returning({ lastReadId: conversationMembers.lastReadId });
  const mark = Number(row!.lastReadId);
  const [left] = await db
    .select({
      n: sql<number>`count(*)::int`,
      since: sql<Date | null>`min(${messages.createdAt})`,
    })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        ne(messages.senderId, userId),
        gt(messages.id, mark),
      ),
    );
  const since = left?.since ? new Date(left.since) : null;
  await db
    .update(conversationMembers)
    .set({ unread: Number(left?.n ?? 0), unreadSince: since })
    .where(
      and(
        eq(conversationMembers.conversationId, conversationId),
        eq(conversationMembers.userId, userId),
      ),
    );
  return mark;
}

export async function totalUnread(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${conversationMembers.unread}), 0)::int` })
    .from(conversationMembers)
    .where(eq(conversationMembers.userId, userId));
  return Number(row?.n ?? 0);
}

export async function lastMessageId(db: DbOrTx, conversationId: number): Promise<number> {
  const [row] = await db
    .select({ id: conversations.lastMessageId })
    .from(conversations)
    .where(eq(conversations.id, conversationId));
  return Number(row?.id ?? 0);
}

/** Blocks between `me` and these users, either way. */
export async function blocksWith(db: DbOrTx, me: number, others: number[]) {
  if (!others.length) return [];
  return db
    .select({ blockerId: userBlocks.blockerId, blockedId: userBlocks.blockedId })
    .from(userBlocks)
    .where(
      or(
        and(eq(userBlocks.blockerId, me), inArray(userBlocks.blockedId, others)),
        and(eq(userBlocks.blockedId, me), inArray(userBlocks.blockerId, others)),
      ),
    );
}

export async function block(db: DbOrTx, blockerId: number, blockedId: number, at: Date) {
  await db.insert(userBlocks).values({ blockerId, blockedId, createdAt: at }).onConflictDoNothing();
}

export async function unblock(db: DbOrTx, blockerId: number, blockedId: number) {
  await db
    .delete(userBlocks)
    .where(and(eq(userBlocks.blockerId, blockerId), eq(userBlocks.blockedId, blockedId)));
}

export async function findMessage(db: DbOrTx, id: number) {
  const [row] = await db.select().from(messages).where(eq(messages.id, id)).limit(1);
  return row;
}

export function messagesByIds(db: DbOrTx, ids: number[]) {
  if (!ids.length) return Promise.resolve([] as MessageRow[]);
  return db.select().from(messages).where(inArray(messages.id, ids)).orderBy(asc(messages.id));
}

/**
 * Sides with messages unread for at least 15 minutes that no mail has covered yet, and none
 * mailed in the last hour (at most one mail per conversation per hour).
 */
export function dueUnreadMails(db: DbOrTx, unreadBefore: Date, mailedBefore: Date, limit: number) {
  return db
    .select()
    .from(conversationMembers)
    .where(
      and(
        gt(conversationMembers.unread, 0),
        lte(conversationMembers.unreadSince, unreadBefore),
        or(
          isNull(conversationMembers.mailedAt),
          and(
            lt(conversationMembers.mailedAt, conversationMembers.unreadSince),
            lte(conversationMembers.mailedAt, mailedBefore),
          ),
        ),
      ),
    )
    .limit(limit);
}

export async function markMailed(db: DbOrTx, conversationId: number, userId: number, at: Date) {
  await db
    .update(conversationMembers)
    .set({ mailedAt: at })
    .where(
      and(
        eq(conversationMembers.conversationId, conversationId),
        eq(conversationMembers.userId, userId),
      ),
    );
}

/** Hides (a time) or shows (null) a message; hidden_at before and after, undefined when unknown. */
export async function setMessageHiddenAt(
  db: DbOrTx,
  id: number,
  at: Date | null,
): Promise<{ before: Date | null; after: Date | null } | undefined> {
  const [old] = await db
    .select({ hiddenAt: messages.hiddenAt })
    .from(messages)
    .where(eq(messages.id, id))
    .for('update');
  if (!old) return undefined;
  const after = at ? (old.hiddenAt ?? at) : null;
  await db.update(messages).set({ hiddenAt: after }).where(eq(messages.id, id));
  return { before: old.hiddenAt, after };
}
