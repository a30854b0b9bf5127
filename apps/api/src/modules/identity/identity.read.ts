/** The identity module's read interface: identity_submissions belongs to this module. */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { identitySubmissions } from '../../db/schema';

/** Submissions waiting for review (the operations dashboard; identity_submissions_pending_idx). */
export async function countPendingIdentities(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(identitySubmissions)
    .where(sql`${identitySubmissions.status} = 'pending'`);
  return Number(row?.n ?? 0);
}
