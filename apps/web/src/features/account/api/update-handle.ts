/** PUT /user/handle: the hunter's handle (SPEC.md §5: letters and digits, at most 15). */
import type { CurrentUser } from '@bountyhunt/shared/users';
import type { handleSchema } from '@bountyhunt/shared/account';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type HandleBody = z.infer<typeof handleSchema>;

export const putHandle = (handle: HandleBody['handle']) =>
  apiRequest<CurrentUser>('PUT', '/user/handle', { handle } satisfies HandleBody);
