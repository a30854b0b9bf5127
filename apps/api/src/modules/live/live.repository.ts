/** live_events and live_tickets: owned by the live module. */
import { and, asc, eq, gt, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { liveEvents, liveTickets } from '../../db/schema';
import type { BusEvent } from './live.bus';

export interface NewEvent {
  userId?: number | null;
  topic?: string | null;
  data: unknown;
}

export async function insertEvents(db: DbOrTx, rows: NewEvent[], at: Date): Promise<BusEvent[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insert(liveEvents)
    .values(
      rows.map((r) => ({
        userId: r.userId ?? null,
        topic: r.topic ?? null,
        data: r.data,
        createdAt: at,
      })),
    )
    .returning({ id: liveEvents.id });
  return inserted.map((r, i) => ({
    id: Number(r.id),
    userId: rows[i]!.userId ?? null,
    topic: rows[i]!.topic ?? null,
    data: rows[i]!.data,
  }));
}

const columns = {
  id: liveEvents.id,
  userId: liveEvents.userId,
  topic: liveEvents.topic,
  data: liveEvents.data,
};

function toBus(rows: { id: number; userId: number | null; topic: string | null; data: unknown }[]) {
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** What a stream of this user watching these topics would have sent after `after`, oldest first. */
export async function eventsSince(
  db: DbOrTx,
  opts: { userId: number | null; topics: string[]; after: number; limit: number },
): Promise<BusEvent[]> {
  const who: SQL[] = [];
  if (opts.userId !== null) who.push(eq(liveEvents.userId, opts.userId));
  if (opts.topics.length) who.push(inArray(liveEvents.topic, opts.topics));
  if (!who.length) return [];
  const rows = await db
    .select(columns)
    .from(liveEvents)
    .where(and(gt(liveEvents.id, opts.after), or(...who)))
    .orderBy(asc(liveEvents.id))
    .limit(opts.limit);
  return toBus(rows);
}

export async function eventsByIds(db: DbOrTx, ids: number[]): Promise<BusEvent[]> {
  if (!ids.length) return [];
  const rows = await db
    .select(columns)
    .from(liveEvents)
    .where(inArray(liveEvents.id, ids))
    .orderBy(asc(liveEvents.id));
  return toBus(rows);
}

export async function pruneEvents(db: DbOrTx, before: Date): Promise<number> {
  const gone = await db
    .delete(liveEvents)
    .where(lt(liveEvents.createdAt, before))
    .returning({ id: liveEvents.id });
  await db.delete(liveTickets).where(lt(liveTickets.expiresAt, before));
  return gone.length;
}

export async function insertTicket(
  db: DbOrTx,
  row: { ticketHash: string; userId: number; sessionId: number; expiresAt: Date },
): Promise<void> {
  await db.insert(liveTickets).values(row);
}

/** Takes a ticket once: deleted as it is read, so a second use finds nothing. */
export async function takeTicket(
  db: DbOrTx,
  ticketHash: string,
  now: Date,
): Promise<{ userId: number; sessionId: number } | undefined> {
  const [row] = await db
    .delete(liveTickets)
    .where(and(eq(liveTickets.ticketHash, ticketHash), gt(liveTickets.expiresAt, now)))
    .returning({ userId: liveTickets.userId, sessionId: liveTickets.sessionId });
  return row;
}

/** The newest event id (a stream without Last-Event-ID starts after it). */
export async function lastEventId(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ id: sql<string>`coalesce(max(${liveEvents.id}), 0)` })
    .from(liveEvents);
  return Number(row?.id ?? 0);
}
