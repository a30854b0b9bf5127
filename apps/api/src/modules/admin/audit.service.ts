/**
 * The audit log (issue 17 part 6): every admin action and every admin sign-in becomes one
 * append-only row: actor, action, target, the changed fields before and after (secrets
 * masked), IP and time. Services record inside the transaction of the change they describe,
 * so an action and its row land together or not at all. Nothing edits or deletes a row.
 */
import { z } from 'zod';
import {
  ADMIN_PAGE,
  type AuditAction,
  type AuditEntry,
  type AuditQuery,
} from '@bountyhunt/shared/admin';
import type { ServiceContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { badRequest } from '../../errors';
import { decodeCursor, pageLimit, takePage, type Page } from '../../lib/paging';
import { emailsOf } from '../users/users.read';
import { insertAudit, listAudit } from './audit.repository';

export interface AuditRecord {
  actorId: number | null;
  action: AuditAction;
  targetType?: string;
  targetId?: string | number;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  ip?: string | null;
}

/** Field names whose values never reach the log: masked to their last four, or hidden. */
const SECRET = /pass|secret|token|ssn|account(?!type)|card|code|otp|key$/i;

export function maskSecrets(
  fields: Record<string, unknown> | null | undefined,
): Record<string, unknown> | null {
  if (!fields) return null;
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [
      name,
      SECRET.test(name) && value !== null && value !== undefined ? mask(value) : value,
    ]),
  );
}

function mask(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 8 ? `•••• ${text.slice(-4)}` : '••••';
}

const cursorSchema = z.object({ id: z.number().int().positive() });
const invalidCursor = () => badRequest('That page of the audit log does not exist.');

export class AuditService {
  constructor(private readonly ctx: ServiceContext) {}

  /** One row; pass the transaction of the change it describes. */
  async record(entry: AuditRecord, db: DbOrTx = this.ctx.db): Promise<void> {
    await insertAudit(db, {
      actorId: entry.actorId,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId === undefined ? null : String(entry.targetId),
      before: maskSecrets(entry.before),
      after: maskSecrets(entry.after),
      ip: entry.ip ?? null,
      createdAt: this.ctx.clock.now(),
    });
  }

  /** GET /admin/audit: newest first, filtered by actor, action or target, keyset paged. */
  async list(query: AuditQuery): Promise<Page<AuditEntry>> {
    const limit = pageLimit(query.limit, ADMIN_PAGE);
    const after = decodeCursor(query.cursor, cursorSchema, invalidCursor);
    const rows = await listAudit(
      this.ctx.db,
      {
        actorId: query.actorId,
        action: query.action,
        targetType: query.targetType,
        targetId: query.targetId,
        beforeId: after?.id,
      },
      limit + 1,
    );
    const page = takePage(rows, limit, (last) => ({ id: last.id }));
    const emails = await emailsOf(
      this.ctx.db,
      page.rows.flatMap((r) => (r.actorId === null ? [] : [r.actorId])),
    );
    return {
      next: page.next,
      items: page.rows.map((r) => ({
        auditId: r.id,
        actorId: r.actorId,
        actorEmail: r.actorId === null ? null : (emails.get(r.actorId) ?? null),
        action: r.action,
        targetType: r.targetType,
        targetId: r.targetId,
        before: (r.before as Record<string, unknown> | null) ?? null,
        after: (r.after as Record<string, unknown> | null) ?? null,
        ip: r.ip,
        created: r.createdAt.toISOString(),
      })),
    };
  }
}
