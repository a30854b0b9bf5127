/**
 * Reports and moderation (issue 17 part 5). Any signed-in user reports a claim, a post, a
 * hunter profile or a bounty (one open report per user and item); admins see open reports
 * grouped by item and hide or keep the item. Hiding is the owning module's write (bounties:
 * claims and bounties, profiles: posts, users: hunters), made in the same transaction as the
 * closing of the reports and the audit row; each module leaves hidden items out of its own
 * listings.
 */
import { z } from 'zod';
import {
  REPORT_CODES,
  type Report,
  type ReportCreateInput,
  type ReportCreatedAnswer,
  type ReportDecision,
  type ReportGroup,
  type ReportItemPreview,
  type ReportQueueQuery,
  type ReportReason,
  type ReportTarget,
} from '@bountyhunt/shared/moderation';
import { REPORT_MSG } from '@bountyhunt/shared/moderation-texts';
import { ADMIN_PAGE, type adminPageQuery } from '@bountyhunt/shared/admin';
import type { Actor, ServiceContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { badRequest, conflict, notFound } from '../../errors';
import { iso, isoFromKey, isoOrNull, MICROSECOND_KEY_RE } from '../../lib/dates';
import { decodeCursor, pageLimit, takePage, type Page } from '../../lib/paging';
import { seesHiddenOf, viewerOf, type HiddenChange } from '../../lib/visibility';
import type { AuditService } from '../admin/audit.service';
import type { BountiesService } from '../bounties/bounties.service';
import type { MessagesService } from '../messages/messages.service';
import type { ProfilesService } from '../profiles/profiles.service';
import { emailsOf } from '../users/users.read';
import type { UsersService } from '../users/users.service';
import {
  closeOpenReports,
  insertReport,
  itemOpenReports,
  openReasons,
  reportQueue,
  type QueueCursor,
} from './moderation.repository';

type PageQuery = z.infer<typeof adminPageQuery>;

const invalidCursor = () => badRequest('That page of reports does not exist.', 'BAD_CURSOR');

const microKey = z.string().regex(MICROSECOND_KEY_RE);
const queueCursor = z.object({
  n: z.number().int().min(0).optional(),
  f: microKey,
  t: z.string().max(20),
  i: z.number().int().min(1).max(2_147_483_647),
});
const itemCursor = z.object({ c: microKey, i: z.number().int().min(1).max(2_147_483_647) });

export interface ModerationParts {
  audit: AuditService;
  bounties: BountiesService;
  profiles: ProfilesService;
  users: UsersService;
  messages: MessagesService;
}

export class ModerationService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly parts: ModerationParts,
  ) {}

  /** Previews of items of one type, by id, from the owning module. */
  private previews(type: ReportTarget, ids: number[]): Promise<Map<number, ReportItemPreview>> {
    const { bounties, profiles, users } = this.parts;
    switch (type) {
      case 'claim':
        return bounties.claimPreviews(ids);
      case 'bounty':
        return bounties.bountyPreviews(ids);
      case 'post':
        return profiles.postPreviews(ids);
      case 'hunter':
        return users.hunterPreviews(ids);
      case 'message':
        return this.parts.messages.messagePreviews(ids);
    }
  }

  /** The owning module's hide/show, in the caller's transaction. */
  private setHidden(
    type: ReportTarget,
    id: number,
    hidden: boolean,
    tx: DbOrTx,
  ): Promise<HiddenChange | undefined> {
    const { bounties, profiles, users } = this.parts;
    switch (type) {
      case 'claim':
        return bounties.setClaimHidden(id, hidden, tx);
      case 'bounty':
        return bounties.setBountyHidden(id, hidden, tx);
      case 'post':
        return profiles.setPostHidden(id, hidden, tx);
      case 'hunter':
        return users.setHunterHidden(id, hidden, tx);
      case 'message':
        return this.parts.messages.setMessageHidden(id, hidden, tx);
    }
  }

  /**
   * POST /report: 404 for an item that does not exist (or that the reporter cannot see), 409
   * when this user already has an open report on it.
   */
  async report(actor: Actor, input: ReportCreateInput): Promise<ReportCreatedAnswer> {
    if (
      input.targetType === 'message' &&
      !(await this.parts.messages.reportable(actor.userId, input.targetId))
    )
      throw notFound(REPORT_MSG.notFound, REPORT_CODES.notFound);
    const item = (await this.previews(input.targetType, [input.targetId])).get(input.targetId);
    if (!item || (item.hidden && !seesHiddenOf(viewerOf(actor), item.ownerId)))
      throw notFound(REPORT_MSG.notFound, REPORT_CODES.notFound);
    const text = input.text?.trim() || null;
    try {
      const row = await insertReport(this.ctx.db, {
        reporterId: actor.userId,
        targetType: input.targetType,
        targetId: input.targetId,
        reason: input.reason,
        text,
        createdAt: this.ctx.clock.now(),
      });
      return { reportId: row.id };
    } catch (err) {
      if (isUniqueViolation(err))
        throw conflict(REPORT_MSG.alreadyReported, REPORT_CODES.alreadyReported);
      throw err;
    }
  }

  /** GET /admin/reports: open reports grouped by item, with a preview of each item. */
  async queue(query: ReportQueueQuery): Promise<Page<ReportGroup>> {
    const sort = query.sort ?? 'oldest';
    const limit = pageLimit(query.limit, ADMIN_PAGE);
    const after = decodeCursor(query.cursor, queueCursor, invalidCursor) as QueueCursor | undefined;
    if (after && sort === 'most' && after.n === undefined) throw invalidCursor();
    const rows = await reportQueue(this.ctx.db, {
      sort,
      ...(query.targetType ? { targetType: query.targetType } : {}),
      ...(after ? { after } : {}),
      limit: limit + 1,
    });
    const page = takePage(rows, limit, (last): QueueCursor => ({
      ...(sort === 'most' ? { n: Number(last.count) } : {}),
      f: last.first_key,
      t: last.target_type,
      i: last.target_id,
    }));
    const items = page.rows.map((r) => ({ type: r.target_type as ReportTarget, id: r.target_id }));
    const byType = new Map<ReportTarget, number[]>();
    for (const i of items) byType.set(i.type, [...(byType.get(i.type) ?? []), i.id]);
    const previews = new Map<string, ReportItemPreview>();
    for (const [type, ids] of byType)
      for (const [id, p] of await this.previews(type, ids)) previews.set(`${type}:${id}`, p);
    const reasons = new Map<string, ReportReason[]>();
    for (const r of await openReasons(this.ctx.db, items)) {
      const key = `${r.target_type}:${r.target_id}`;
      reasons.set(key, [...(reasons.get(key) ?? []), r.reason as ReportReason]);
    }
    return {
      next: page.next,
      items: page.rows.map((r) => {
        const key = `${r.target_type}:${r.target_id}`;
        return {
          targetType: r.target_type as ReportTarget,
          targetId: r.target_id,
          count: Number(r.count),
          firstReported: isoFromKey(r.first_key),
          lastReported: iso(r.last_at),
          reasons: reasons.get(key) ?? [],
          item: previews.get(key) ?? null,
        };
      }),
    };
  }

  /** GET /admin/reports/{type}/{id}: the item's open reports, oldest first. */
  async itemReports(type: ReportTarget, id: number, query: PageQuery): Promise<Page<Report>> {
    const limit = pageLimit(query.limit, ADMIN_PAGE);
    const after = decodeCursor(query.cursor, itemCursor, invalidCursor);
    const rows = await itemOpenReports(this.ctx.db, type, id, {
      ...(after ? { after } : {}),
      limit: limit + 1,
    });
    const page = takePage(rows, limit, (last) => ({ c: last.key, i: last.id }));
    const emails = await emailsOf(
      this.ctx.db,
      page.rows.map((r) => r.reporterId),
    );
    return {
      next: page.next,
      items: page.rows.map((r) => ({
        reportId: r.id,
        reporterId: r.reporterId,
        reporterEmail: emails.get(r.reporterId) ?? null,
        reason: r.reason as ReportReason,
        text: r.text,
        status: r.status as Report['status'],
        created: isoFromKey(r.key),
        resolved: isoOrNull(r.resolvedAt),
      })),
    };
  }

  /**
   * POST /admin/reports/{type}/{id}/hide|keep: sets (hide) or clears (keep) the item's
   * hidden_at, closes its open reports with the decision and writes the audit row, in one
   * transaction; then the feed cache is cleared so no cached page shows a hidden item.
   */
  async decide(
    actor: Actor,
    type: ReportTarget,
    id: number,
    decision: 'hide' | 'keep',
    ip: string | null = null,
  ): Promise<ReportDecision> {
    const hide = decision === 'hide';
    const now = this.ctx.clock.now();
    const closed = await this.ctx.db.transaction(async (tx) => {
      const change = await this.setHidden(type, id, hide, tx);
      if (!change) throw notFound(REPORT_MSG.notFound, REPORT_CODES.notFound);
      const n = await closeOpenReports(tx, type, id, {
        status: hide ? 'hidden' : 'kept',
        by: actor.userId,
        at: now,
      });
      await this.parts.audit.record(
        {
          actorId: actor.userId,
          action: hide ? 'report.hide' : 'report.keep',
          targetType: type,
          targetId: id,
          before: { hiddenAt: isoOrNull(change.before), openReports: n },
          after: { hiddenAt: isoOrNull(change.after), openReports: 0 },
          ip,
        },
        tx,
      );
      return n;
    });
    this.parts.bounties.feedChanged();
    return { targetType: type, targetId: id, hidden: hide, closed };
  }
}
