/**
 * The moderation module's table: reports. Open reports are read through the partial index
 * reports_open_item_idx (target_type, target_id, created_at) where status = 'open'; one open
 * report per reporter and item is the partial unique index reports_open_once_idx.
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import { reports } from '../../db/schema';
import { microsecondKey } from '../../lib/dates';

export type ReportRow = typeof reports.$inferSelect;

export async function insertReport(
  db: DbOrTx,
  values: {
    reporterId: number;
    targetType: string;
    targetId: number;
    reason: string;
    text: string | null;
    createdAt: Date;
  },
): Promise<ReportRow> {
  const [row] = await db.insert(reports).values(values).returning();
  return row!;
}

export interface QueueRow {
  target_type: string;
  target_id: number;
  count: number | string;
  first_at: Date | string;
  last_at: Date | string;
  /** min(created_at) as microsecond text: the cursor key. */
  first_key: string;
}

export interface QueueCursor {
  /** Count of the last group (most-reported order only). */
  n?: number;
  /** first_key of the last group. */
  f: string;
  t: string;
  i: number;
}

/**
 * One page of open reports grouped by item: oldest first report first, or most reports
 * first (then oldest); keyset on (count, first report, type, id).
 */
export function reportQueue(
  db: DbOrTx,
  opts: { sort: 'oldest' | 'most'; targetType?: string; after?: QueueCursor; limit: number },
): Promise<QueueRow[]> {
  const filter = opts.targetType ? sql` and target_type = ${opts.targetType}` : sql``;
  const a = opts.after;
  let keyset: SQL = sql``;
  if (a) {
    const rest = sql`(g.first_at, g.target_type, g.target_id) > (${a.f}::timestamptz, ${a.t}, ${a.i}::int4)`;
    keyset =
      opts.sort === 'most'
        ? sql`where (g.count < ${a.n ?? 0}::int4 or (g.count = ${a.n ?? 0}::int4 and ${rest}))`
        : sql`where ${rest}`;
  }
  const order =
    opts.sort === 'most'
      ? sql`g.count desc, g.first_at asc, g.target_type asc, g.target_id asc`
      : sql`g.first_at asc, g.target_type asc, g.target_id asc`;
  return queryRows<QueueRow>(
    db,
    sql`select g.*, ${microsecondKey(sql`g.first_at`)} as first_key from (
        select target_type, target_id, count(*)::int4 as count,
          min(created_at) as first_at, max(created_at) as last_at
        from reports where status = 'open'${filter}
        group by target_type, target_id
      ) g ${keyset}
      order by ${order}
      limit ${opts.limit}`,
  );
}

/** Open report counts per reason of these items, most frequent first. */
export function openReasons(
  db: DbOrTx,
  items: { type: string; id: number }[],
): Promise<{ target_type: string; target_id: number; reason: string; n: number | string }[]> {
  if (items.length === 0) return Promise.resolve([]);
  const pairs = sql.join(
    items.map((i) => sql`(${i.type}, ${i.id}::int4)`),
    sql`, `,
  );
  return queryRows(
    db,
    sql`select target_type, target_id, reason, count(*) as n from reports
      where status = 'open' and (target_type, target_id) in (${pairs})
      group by target_type, target_id, reason
      order by target_type, target_id, n desc, reason`,
  );
}

export interface ItemReportRow extends ReportRow {
  /** created_at as microsecond text: the cursor key. */
  key: string;
}

/**
 * The open reports of one item, oldest first, keyset on (created_at, id): a range of
 * reports_open_item_idx. (Closed reports have no index by item; the audit log keeps decisions.)
 */
export function itemOpenReports(
  db: DbOrTx,
  type: string,
  id: number,
  opts: { after?: { c: string; i: number }; limit: number },
): Promise<ItemReportRow[]> {
  return db
    .select({
      id: reports.id,
      reporterId: reports.reporterId,
      targetType: reports.targetType,
      targetId: reports.targetId,
      reason: reports.reason,
      text: reports.text,
      status: reports.status,
      resolvedBy: reports.resolvedBy,
      resolvedAt: reports.resolvedAt,
      createdAt: reports.createdAt,
      key: sql<string>`${microsecondKey(sql`${reports.createdAt}`)}`,
    })
    .from(reports)
    .where(
      and(
        eq(reports.targetType, type),
        eq(reports.targetId, id),
        eq(reports.status, 'open'),
        opts.after
          ? sql`(${reports.createdAt}, ${reports.id}) > (${opts.after.c}::timestamptz, ${opts.after.i}::int4)`
          : undefined,
      ),
    )
    .orderBy(asc(reports.createdAt), asc(reports.id))
    .limit(opts.limit);
}

/** Closes the item's open reports with the decision; how many it closed. */
export async function closeOpenReports(
  db: DbOrTx,
  type: string,
  id: number,
  decision: { status: 'hidden' | 'kept'; by: number; at: Date },
): Promise<number> {
  const rows = await db
    .update(reports)
    .set({ status: decision.status, resolvedBy: decision.by, resolvedAt: decision.at })
    .where(and(eq(reports.targetType, type), eq(reports.targetId, id), eq(reports.status, 'open')))
    .returning({ id: reports.id });
  return rows.length;
}
