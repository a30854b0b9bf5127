/**
 * Answer shapes of CONTRACT.md "Shapes of answers" that are not one feature's: the error
 * answer every endpoint may give, the User and the current user (GET /user, /user/current).
 */
import { z } from 'zod';
import type { ErrorAnswer } from './api';
import { hunterAnswer } from './profiles';
import { IDENTITY_STATUS } from './roles';

/** The zod schema of api.ts's ErrorAnswer (kept there zod-free for the web's first screens). */
export const errorAnswer = z.object({
  message: z.string(),
  code: z.string(),
}) satisfies z.ZodType<ErrorAnswer>;

export const userAnswer = z.object({
  userId: z.number().int(),
  email: z.string(),
  role: z.number().int(),
  active: z.string().nullable(),
  handle: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  taxAddress: z
    .object({ street: z.string(), city: z.string(), state: z.string(), zip: z.string() })
    .nullable(),
  ssnLastFour: z.string().nullable(),
  bankAccountLastFour: z.string().nullable(),
  bankInfo: z
    .object({
      name: z.string().nullable(),
      accountType: z.string().nullable(),
      routingNumber: z.string().nullable(),
    })
    .nullable(),
  creditCardLastFour: z.string().nullable(),
  silver: z.number().int(),
  votes: z.number().int(),
  membership: z.number().int().nullable(),
  identityStatus: z.enum(IDENTITY_STATUS),
  /** Why the last identity submission was rejected; null unless identityStatus is rejected. */
  identityReason: z.string().nullable(),
});
export type User = z.infer<typeof userAnswer>;

export const currentUserAnswer = z.object({ user: userAnswer, hunter: hunterAnswer.nullable() });
export type CurrentUser = z.infer<typeof currentUserAnswer>;

/** `{user}`: the answer of the account endpoints that change the user. */
export const userInData = z.object({ user: userAnswer });
export type UserInData = z.infer<typeof userInData>;
