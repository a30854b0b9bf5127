/**
 * Bounties, rounds, claims and votes (SPEC.md §2, §3, §7; CONTRACT.md "Bounties and rounds",
 * "Money and tokens"): request schemas and answer shapes used by both the API and the web.
 */
import { z } from 'zod';

/** SPEC.md §9 limits. */
export const BOUNTY_LIMITS = {
  bountyTitle: 100,
  minBountySeconds: 3600,
} as const;

/**
 * Texts of this feature. SPEC.md §5 and §8 give titleBlank … bountyPostThrown (wording is a
 * requirement: change it only with SPEC.md); the server answers after them SPEC.md does not.
 */
export const BOUNTY_MSG = {
  titleBlank: 'Title cannot be blank',
  // Not SPEC.md's (the form's field stops at the limit).
  titleTooLong: `Title can be at most ${BOUNTY_LIMITS.bountyTitle} characters.`,
  hoursInvalid: 'Invalid value for hours remaining',
  claimPostError: (status: number) => `Error posting claim: ${status}`,
  claimPostThrown: (error: string) => `Post error: ${error}`,
  bountyPostError: (status: number) => `Error posting bounty (${status})`,
  bountyPostThrown: (error: string) => `Error ${error}`,
  bountyNotFound: 'Bounty not found.',
  claimNotFound: 'Claim not found.',
  membershipNeeded: 'An active membership is needed to do this.',
  hunterNeeded: 'Only hunters can post claims.',
  ownClaim: 'You cannot vote on your own claim.',
  alreadyVoted: 'You have already voted on this claim.',
  roundNotActive: 'This round is not active.',
  roundStillActive: 'The current round has not ended yet.',
  notPoster: 'Only the poster of this bounty can open a round.',
  oneClaimPerRound: 'You already have a claim in this round.',
  mediaUnknown: 'Upload the media before posting a claim.',
  mediaFailed: 'This media could not be processed; upload it again.',
  badCursor: 'Invalid cursor.',
} as const;

export const BOUNTY_DURATION_HOURS = [8, 24, 168, 720] as const;
export const BOUNTY_MEDIA_TYPES = [
  { code: 1, label: 'Pictures' },
  { code: 2, label: 'Shorts' },
  { code: 4, label: 'Videos' },
] as const;

/** SPEC.md §2 creation form: labels of the duration choice, sent as seconds (§9). */
export const BOUNTY_DURATIONS = BOUNTY_DURATION_HOURS.map((hours) => ({
  hours,
  seconds: hours * 3600,
  label: hours < 168 ? `${hours} hrs` : `${hours / 24} days`,
}));
export const DEFAULT_BOUNTY_SECONDS = 24 * 3600;
export const DEFAULT_MEDIA_TYPE = 1;

/** Feed paging: default and largest page. */
export const SEARCH_PAGE = { default: 10, max: 50 } as const;
/** Claims listed per round in feed items (the grid of the first round's claims). */
export const FEED_CLAIMS_PER_ROUND = 12;

/** An id that may arrive as a number, a numeric string, '' or null (SPEC.md §7 sends excludeId). */
const optionalId = z.preprocess((v) => {
  if (v === '' || v === null || v === undefined) return undefined;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return v;
}, z.number().int().min(0).max(2_147_483_647).optional());

/** POST /bounty/search */
export const bountySearchSchema = z.object({
  term: z.string().max(200).optional().default(''),
  excludeId: optionalId,
  limit: z.number().int().min(1).max(SEARCH_PAGE.max).optional(),
  cursor: z.string().max(200).optional(),
});
export type BountySearchInput = z.infer<typeof bountySearchSchema>;

/** A round's length in seconds: more than an hour, at most a year (SPEC.md §5, §9). */
const roundSeconds = z
  .number({ error: BOUNTY_MSG.hoursInvalid })
  .int(BOUNTY_MSG.hoursInvalid)
  .gt(BOUNTY_LIMITS.minBountySeconds, BOUNTY_MSG.hoursInvalid)
  .max(366 * 24 * 3600, BOUNTY_MSG.hoursInvalid);

/** POST /bounty */
export const bountyCreateSchema = z.object({
  title: z
    .string({ error: BOUNTY_MSG.titleBlank })
    .trim()
    .min(1, BOUNTY_MSG.titleBlank)
    .max(BOUNTY_LIMITS.bountyTitle, BOUNTY_MSG.titleTooLong),
  seconds: roundSeconds,
  amount: z.number().int().min(0).max(2_147_483_647).default(0),
  mediaType: z.union([z.literal(1), z.literal(2), z.literal(4)]).default(1),
});
export type BountyCreateInput = z.infer<typeof bountyCreateSchema>;

/** POST /bounty/{id}/round: the poster opens a further round (optional new amount held). */
export const roundCreateSchema = z.object({
  seconds: roundSeconds,
  amount: z.number().int().min(0).max(2_147_483_647).default(0),
});
export type RoundCreateInput = z.infer<typeof roundCreateSchema>;

/** POST /claim: roundId is the bounty's roundCount (CONTRACT.md "Round"). */
export const claimCreateSchema = z.object({
  bountyId: z.number().int().positive().max(2_147_483_647),
  roundId: z.number().int().positive().max(2_147_483_647),
  media: z.string().trim().min(1).max(200),
  multiple: z.boolean().default(true),
});
export type ClaimCreateInput = z.infer<typeof claimCreateSchema>;

/** POST /vote: one to five of the voter's votes on a claim. */
export const voteSchema = z.object({
  claimId: z.number().int().positive().max(2_147_483_647),
  votes: z.number().int().min(1).max(5),
});
export type VoteInput = z.infer<typeof voteSchema>;

/** Answer shapes of CONTRACT.md "Shapes of answers". */
export const claimHunterAnswer = z.object({
  hunterId: z.number().int(),
  handle: z.string().nullable(),
  stagename: z.string().nullable(),
  picture: z.string().nullable(),
});
export type ClaimHunter = z.infer<typeof claimHunterAnswer>;

export const claimAnswer = z.object({
  claimId: z.number().int(),
  bountyId: z.number().int(),
  bounty: z.object({ bountyId: z.number().int(), title: z.string() }),
  roundId: z.number().int(),
  round: z.object({ roundId: z.number().int(), endDate: z.string().nullable() }),
  hunter: claimHunterAnswer,
  media: z.string(),
  votes: z.number().int(),
  created: z.string(),
  /** Hidden by moderators: only its owner and admins get it, marked so (absent otherwise). */
  hidden: z.boolean().optional(),
});
export type Claim = z.infer<typeof claimAnswer>;

export const roundAnswer = z.object({
  roundId: z.number().int(),
  endDate: z.string().nullable(),
  claims: z.array(claimAnswer),
});
export type Round = z.infer<typeof roundAnswer>;

export const BOUNTY_STATUS = ['open', 'decided'] as const;

export const bountyAnswer = z.object({
  bountyId: z.number().int(),
  id: z.number().int(),
  title: z.string(),
  amount: z.number().int(),
  mediaType: z.number().int(),
  userId: z.number().int(),
  created: z.string(),
  roundCount: z.number().int(),
  /** open until the last round ends; decided once the job has paid the winner (or refunded). */
  status: z.enum(BOUNTY_STATUS),
  winnerClaimId: z.number().int().nullable(),
  rounds: z.array(roundAnswer),
  /** Hidden by moderators: only its poster and admins get it, marked so (absent otherwise). */
  hidden: z.boolean().optional(),
});
export type Bounty = z.infer<typeof bountyAnswer>;
/** POST /bounty/search: one page of the feed. */
export const feedAnswer = z.array(bountyAnswer);
export type FeedAnswer = z.infer<typeof feedAnswer>;
