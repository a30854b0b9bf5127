/** Answer shapes of CONTRACT.md "Shapes of answers": used by the API's response schemas and the web client's types. */
import { z } from 'zod';
import { IDENTITY_STATUS } from './roles';

export const errorAnswer = z.object({ message: z.string(), code: z.string() });
export type ErrorAnswer = z.infer<typeof errorAnswer>;

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
});
export type User = z.infer<typeof userAnswer>;

export const hunterAnswer = z.object({
  hunterId: z.number().int(),
  userId: z.number().int(),
  handle: z.string().nullable(),
  stagename: z.string().nullable(),
  bio: z.string().nullable(),
  banner: z.string().nullable(),
  picture: z.string().nullable(),
});
export type Hunter = z.infer<typeof hunterAnswer>;

export const currentUserAnswer = z.object({ user: userAnswer, hunter: hunterAnswer.nullable() });
export type CurrentUser = z.infer<typeof currentUserAnswer>;

export const authAnswer = z.object({ token: z.string(), user: userAnswer });
export type AuthAnswer = z.infer<typeof authAnswer>;

export const userInData = z.object({ user: userAnswer });
