/** notifications and notification_settings: owned by the notifications module. */
import { and, desc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { notifications, notificationSettings } from '../../db/schema';

export type NotificationRow = typeof notifications.$inferSelect;

export async function insertNotifications(
  db: DbOrTx,
  rows: (typeof notifications.$inferInsert)[],
): Promise<NotificationRow[]> {
  if (!rows.length) return [];
  return db.insert(notifications).values(rows).returning();
}

export function pageOf(db: DbOrTx, userId: number, before: number | undefined, limit: number) {
  return db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), before ? lt(notifications.id, before) : undefined))
    .orderBy(desc(notifications.id))
    .limit(limit);
}

export async function unreadCounts(db: DbOrTx, userIds: number[]): Promise<Map<number, number>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .select({ userId: notifications.userId, n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(inArray(notifications.userId, userIds), isNull(notifications.readAt)))
    .groupBy(notifications.userId);
  return new Map(rows.map((r) => [r.userId, Number(r.n)]));
}

export async function markRead(
  db: DbOrTx,
  userId: number,
  upTo: number | undefined,
  at: Date,
): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: at })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        upTo ? lte(notifications.id, upTo) : undefined,
      ),
    );
}

export function settingsOf(db: DbOrTx, userIds: number[]) {
  if (!userIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(notificationSettings)
    .where(inArray(notificationSettings.userId, userIds));
}

export async function saveSettings(
  db: DbOrTx,
  userId: number,
  rows: { type: string; inApp: boolean; email: boolean }[],
): Promise<void> {
  if (!rows.length) return;
  await db
    .insert(notificationSettings)
    .values(rows.map((r) => ({ userId, ...r })))
    .onConflictDoUpdate({
      target: [notificationSettings.userId, notificationSettings.type],
      set: { inApp: sql`excluded.in_app`, email: sql`excluded.email` },
    });
}
