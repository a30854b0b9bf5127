/** The moderation module's read interface: reports belongs to this module. */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { reports } from '../../db/schema';

/** Items with at least one open report (the operations dashboard; reports_open_item_idx). */
export async function countReportedItems(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct (${reports.targetType}, ${reports.targetId}))::int` })
    .from(reports)
    .where(sql`${reports.status} = 'open'`);
  return Number(row?.n ?? 0);
}
