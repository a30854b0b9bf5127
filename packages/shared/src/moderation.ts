/**
 * Reports and moderation (issue 17 part 5): any signed-in user reports a claim, a post, a
 * hunter profile or a bounty; admins work through a queue grouped by item and hide or keep it.
 * A hidden item is gone for everyone but its owner (who sees it with `hidden: true`) and admins.
 */
import { z } from 'zod';

// The texts (REPORT_MSG) are in moderation-texts.ts: the pages' hidden marker needs no zod.

export const REPORT_TARGETS = ['claim', 'post', 'hunter', 'bounty', 'message'] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

export const REPORT_REASONS = [
  'spam',
  'nudity',
  'violence',
  'harassment',
  'copyright',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** Labels of the report dialog's reason select. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam or scam',
  nudity: 'Nudity or sexual content',
  violence: 'Violence or dangerous acts',
  harassment: 'Harassment or hate',
  copyright: 'Copyright infringement',
  other: 'Something else',
};

export const REPORT_TEXT_MAX = 500;

export const REPORT_CODES = {
  alreadyReported: 'ALREADY_REPORTED',
  notFound: 'REPORT_TARGET_NOT_FOUND',
} as const;

/** POST /report */
export const reportCreateSchema = z.object({
  targetType: z.enum(REPORT_TARGETS),
  targetId: z.number().int().positive().max(2_147_483_647),
  reason: z.enum(REPORT_REASONS, { error: 'Please choose a reason.' }),
  text: z.string().trim().max(REPORT_TEXT_MAX).optional(),
});
export type ReportCreateInput = z.infer<typeof reportCreateSchema>;

export const reportCreatedAnswer = z.object({ reportId: z.number().int() });
export type ReportCreatedAnswer = z.infer<typeof reportCreatedAnswer>;

/** What the queue shows of a reported item (from its owning module). */
export const reportItemPreview = z.object({
  /** Bounty title, the claim's bounty title, a post's text, a hunter's stage name. */
  title: z.string().nullable(),
  /** A media key (claim media, post file, hunter picture), shown as a thumbnail. */
  media: z.string().nullable(),
  /** The owner's handle. */
  handle: z.string().nullable(),
  /** The owner's user id. */
  ownerId: z.number().int().nullable(),
  hidden: z.boolean(),
});
export type ReportItemPreview = z.infer<typeof reportItemPreview>;

export const REPORT_QUEUE_SORTS = ['oldest', 'most'] as const;

/** GET /admin/reports: open reports grouped by item. */
export const reportQueueQuery = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  sort: z.enum(REPORT_QUEUE_SORTS).optional(),
  targetType: z.enum(REPORT_TARGETS).optional(),
});
export type ReportQueueQuery = z.infer<typeof reportQueueQuery>;

export const reportGroupAnswer = z.object({
  targetType: z.enum(REPORT_TARGETS),
  targetId: z.number().int(),
  /** Open reports of the item. */
  count: z.number().int(),
  firstReported: z.string(),
  lastReported: z.string(),
  /** Reasons of the open reports, most frequent first. */
  reasons: z.array(z.enum(REPORT_REASONS)),
  /** Null when the item no longer exists. */
  item: reportItemPreview.nullable(),
});
export type ReportGroup = z.infer<typeof reportGroupAnswer>;

export const REPORT_STATUSES = ['open', 'hidden', 'kept'] as const;

export const reportAnswer = z.object({
  reportId: z.number().int(),
  reporterId: z.number().int(),
  reporterEmail: z.string().nullable(),
  reason: z.enum(REPORT_REASONS),
  text: z.string().nullable(),
  status: z.enum(REPORT_STATUSES),
  created: z.string(),
  resolved: z.string().nullable(),
});
export type Report = z.infer<typeof reportAnswer>;

export const reportTargetParams = z.object({
  targetType: z.enum(REPORT_TARGETS),
  targetId: z.coerce.number().int().positive().max(2_147_483_647),
});

/** POST /admin/reports/{type}/{id}/hide|keep */
export const reportDecisionAnswer = z.object({
  targetType: z.enum(REPORT_TARGETS),
  targetId: z.number().int(),
  hidden: z.boolean(),
  /** Open reports this decision closed. */
  closed: z.number().int(),
});
export type ReportDecision = z.infer<typeof reportDecisionAnswer>;
