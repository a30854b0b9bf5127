/** PUT /user/name → `{user}`. */
import type { userInData } from '@bountyhunt/shared/users';
import type { nameSchema } from '@bountyhunt/shared/account';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type NameBody = z.infer<typeof nameSchema>;

export const putName = (firstName: string, lastName: string) =>
  apiRequest<z.infer<typeof userInData>>('PUT', '/user/name', {
    firstName,
    lastName,
  } satisfies NameBody);
