/** The audit log table (append-only: the migration's trigger refuses UPDATE and DELETE). */
import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

export async function insertAudit(db: DbOrTx, row: NewAuditRow): Promise<void> {
  await db.insert(auditLog).values(row);
}

export interface AuditFilter {
  actorId?: number;
  action?: string;
  targetType?: string;
  targetId?: string;
  /** Rows older than this id (the keyset). */
  beforeId?: number;
}

/** Newest first; each filter has its own index (actor, action, target), all end in id. */
export function listAudit(db: DbOrTx, filter: AuditFilter, limit: number): Promise<AuditRow[]> {
  const where: SQL[] = [];
  if (filter.actorId !== undefined) where.push(eq(auditLog.actorId, filter.actorId));
  if (filter.action !== undefined) where.push(eq(auditLog.action, filter.action));
  if (filter.targetType !== undefined) where.push(eq(auditLog.targetType, filter.targetType));
  if (filter.targetId !== undefined) where.push(eq(auditLog.targetId, filter.targetId));
  if (filter.beforeId !== undefined) where.push(lt(auditLog.id, filter.beforeId));
  return db
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(limit);
}
