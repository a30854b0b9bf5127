/**
 * Hunter profiles, posts and the hunters directory (SPEC.md §2 "Profile page", "Create Post",
 * Hunters; §7 GET /hunter/handle/{handle}, GET /posts/{hunterId}, GET /user/claims/{hunterId},
 * POST /post). Shapes follow CONTRACT.md "Shapes of answers"; additions are noted.
 */
import { z } from 'zod';
import { digits } from './numbers';

/** SPEC.md §9 limits. */
export const PROFILE_LIMITS = {
  postText: 200,
} as const;

/** Texts of the profiles feature: postError is SPEC.md §8's; SPEC.md does not give the others. */
export const PROFILE_MSG = {
  postError: (status: number) => `Error updating profile code ${status}`,
  hunterNotFound: 'Hunter not found.',
  bountyNotFound: 'Bounty not found.',
  mediaUnknown: 'Please upload an image or video first.',
  mediaFailed: 'This upload could not be processed. Please upload another file.',
  bannerNotImage: 'The banner must be an image.',
  notHunter: 'Only hunters can do this.',
  invalidCursor: 'Invalid cursor.',
  noProfile: 'No hunter goes by this handle.',
} as const;

/** CONTRACT.md Hunter. */
export const hunterAnswer = z.object({
  hunterId: z.number().int(),
  userId: z.number().int(),
  handle: z.string().nullable(),
  stagename: z.string().nullable(),
  bio: z.string().nullable(),
  banner: z.string().nullable(),
  picture: z.string().nullable(),
  /** Hidden by moderators: only the hunter and admins get the profile, marked so. */
  hidden: z.boolean().optional(),
});
export type Hunter = z.infer<typeof hunterAnswer>;

export const PAGE = { defaultLimit: 20, maxLimit: 100, directoryDefaultLimit: 24 } as const;

/** Database ids are int4: anything outside answers 400, never 500. */
export const idParam = digits(
  z
    .number({ error: 'Invalid id.' })
    .int('Invalid id.')
    .positive('Invalid id.')
    .max(2_147_483_647, 'Invalid id.'),
);

export const hunterIdParams = z.object({ hunterId: idParam });
export type HunterIdParams = z.infer<typeof hunterIdParams>;
export const handleParams = z.object({ handle: z.string().min(1).max(100) });
export type HandleParams = z.infer<typeof handleParams>;

export const pageQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: digits(z.number().int().min(1).max(PAGE.maxLimit).optional()),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const directoryQuery = pageQuery.extend({
  q: z.string().trim().max(50).optional(),
});
export type DirectoryQuery = z.infer<typeof directoryQuery>;

/** Real numbers shown on a profile instead of SPEC.md's placeholders. */
export const hunterStats = z.object({
  posts: z.number().int(),
  claims: z.number().int(),
  /** Sum of the votes all of this hunter's claims received. */
  votes: z.number().int(),
});
export type HunterStats = z.infer<typeof hunterStats>;

/** GET /hunter/handle/{handle}: CONTRACT.md's Hunter plus `stats`. */
export const hunterProfileAnswer = hunterAnswer.extend({ stats: hunterStats });
export type HunterProfile = z.infer<typeof hunterProfileAnswer>;

/** CONTRACT.md Post, plus `bountyId` when posted from /bounty/post/{id}. */
export const postAnswer = z.object({
  postId: z.number().int(),
  hunterId: z.number().int(),
  bountyId: z.number().int().nullable(),
  file: z.string(),
  text: z.string().nullable(),
  created: z.string(),
  /** Hidden by moderators: only its hunter and admins get it, marked so (absent otherwise). */
  hidden: z.boolean().optional(),
});
export type Post = z.infer<typeof postAnswer>;

/** CONTRACT.md Claim, plus its current `rank` within its round (1 = most votes; ties: earlier). */
export const profileClaimAnswer = z.object({
  claimId: z.number().int(),
  bountyId: z.number().int(),
  bounty: z.object({ bountyId: z.number().int(), title: z.string() }),
  roundId: z.number().int(),
  round: z.object({ roundId: z.number().int(), endDate: z.string().nullable() }),
  hunter: z.object({
    hunterId: z.number().int(),
    handle: z.string().nullable(),
    stagename: z.string().nullable(),
    picture: z.string().nullable(),
  }),
  media: z.string(),
  votes: z.number().int(),
  created: z.string(),
  rank: z.number().int(),
  hidden: z.boolean().optional(),
});
export type ProfileClaim = z.infer<typeof profileClaimAnswer>;

/** One entry of the merged profile feed, newest first. */
export const feedItemAnswer = z.discriminatedUnion('type', [
  z.object({ type: z.literal('post'), created: z.string(), post: postAnswer }),
  z.object({ type: z.literal('claim'), created: z.string(), claim: profileClaimAnswer }),
]);
export type FeedItem = z.infer<typeof feedItemAnswer>;

/** An entry of GET /hunters. */
export const hunterCardAnswer = z.object({
  hunterId: z.number().int(),
  handle: z.string(),
  stagename: z.string().nullable(),
  picture: z.string().nullable(),
  bio: z.string().nullable(),
  stats: hunterStats,
  /** Admins only: the hunter is hidden by moderators. */
  hidden: z.boolean().optional(),
});
export type HunterCard = z.infer<typeof hunterCardAnswer>;

/** The Create Post form (SPEC.md §2, §5: the text at most 200 characters). */
export const postSchema = z.object({
  text: z
    .string()
    .max(PROFILE_LIMITS.postText, `At most ${PROFILE_LIMITS.postText} characters.`)
    .default(''),
  fileName: z.string().min(1).max(200),
});
export type PostInput = z.infer<typeof postSchema>;

/** POST /post {text, fileName}; `bountyId` when posting from /bounty/post/{id}. */
export const postCreateSchema = postSchema.extend({
  bountyId: idParam.optional(),
});
export type PostCreateInput = z.infer<typeof postCreateSchema>;

/** PUT /hunter/banner {banner: key}; the key comes from POST /media/image. */
export const bannerSchema = z.object({
  banner: z.string().min(1, 'Please upload a banner image.').max(200),
});
export type BannerInput = z.infer<typeof bannerSchema>;

/** Where the Create Post page goes back to on Cancel (SPEC.md §2). */
export function postCancelTarget(bountyId: number | string | null | undefined): string {
  return bountyId != null && bountyId !== '' ? `/bounty/${bountyId}` : '/profile';
}
