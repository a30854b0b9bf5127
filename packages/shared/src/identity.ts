/**
 * The identity review (issue 17 part 3, CONTRACT.md "Operations, payouts and live events"):
 * the admin queue of pending submissions, the review with short-lived signed image URLs, and
 * the decision (approve, or reject with a listed reason and free text) the user then sees on
 * /account/identity (GET /user `identityReason`).
 */
import { z } from 'zod';
import { adminPageQuery } from './admin';

/** Why a submission is rejected; the label is what the user reads. */
export const IDENTITY_REJECT_REASONS = [
  'blurry',
  'mismatch',
  'expired',
  'incomplete',
  'underage',
  'other',
] as const;
export type IdentityRejectReason = (typeof IDENTITY_REJECT_REASONS)[number];

export const IDENTITY_REASON_LABEL: Record<IdentityRejectReason, string> = {
  blurry: 'The photos are blurry or hard to read.',
  mismatch: 'The person in the selfie does not match the ID.',
  expired: 'The ID has expired.',
  incomplete: 'Part of the ID is missing, covered or cut off.',
  underage: 'The ID shows that you are under 18.',
  other: 'We could not verify your documents.',
};

export const IDENTITY_LIMITS = { reasonText: 500 } as const;

/** How long a signed image URL of the review works. */
export const IDENTITY_MEDIA_TTL_SECONDS = 300;

/** Images are deleted this many days after the decision; the decision stays. */
export const IDENTITY_IMAGE_RETENTION_DAYS = 30;

export const IDENTITY_MSG = {
  notPending: 'This submission has already been decided.',
  ownSubmission: 'You cannot review your own identity submission.',
  textRequired: 'Please describe the problem for the user.',
  alreadyApproved: 'Your identity is already verified.',
  linkInvalid: 'This image link is invalid or has expired.',
} as const;

/** The text of GET /user `identityReason`: the listed reason and the reviewer's note. */
export function identityReasonText(code: IdentityRejectReason, text: string | null): string {
  const label = IDENTITY_REASON_LABEL[code];
  return text ? `${label} ${text}` : label;
}

/** POST /admin/identities/:id/reject */
export const identityRejectSchema = z
  .object({
    reason: z.enum(IDENTITY_REJECT_REASONS),
    text: z
      .string()
      .trim()
      .max(IDENTITY_LIMITS.reasonText)
      .optional()
      .transform((v) => (v ? v : undefined)),
  })
  .refine((v) => v.reason !== 'other' || v.text !== undefined, {
    message: IDENTITY_MSG.textRequired,
    path: ['text'],
  });
export type IdentityRejectInput = z.input<typeof identityRejectSchema>;

export const identityIdParams = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
});

/** GET /admin/identities: pending submissions, oldest first (x-next-cursor). */
export const identityQueueQuery = adminPageQuery;
export type IdentityQueueQuery = z.infer<typeof identityQueueQuery>;

export const identityStatusOfSubmission = z.enum(['pending', 'approved', 'rejected', 'superseded']);

export const identityQueueItem = z.object({
  submissionId: z.number().int(),
  userId: z.number().int(),
  email: z.string(),
  handle: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  /** The form's "at least 18" confirmation; null when the call did not send one. */
  ageAttested: z.boolean().nullable(),
  submitted: z.string(),
});
export type IdentityQueueItem = z.infer<typeof identityQueueItem>;

/** GET /admin/identities/:id */
export const identityDetailAnswer = identityQueueItem.extend({
  status: identityStatusOfSubmission,
  reason: z.enum(IDENTITY_REJECT_REASONS).nullable(),
  reasonText: z.string().nullable(),
  decidedBy: z.number().int().nullable(),
  decided: z.string().nullable(),
  imagesDeleted: z.string().nullable(),
  /** Signed URLs of the two private images (null once deleted); they expire at `expires`. */
  idFrontUrl: z.string().nullable(),
  idSelfieUrl: z.string().nullable(),
  expires: z.string(),
});
export type IdentityDetailAnswer = z.infer<typeof identityDetailAnswer>;
