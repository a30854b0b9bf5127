/** PUT /user/email/{email}: the address goes in the path. */
import type { userInData } from '@bountyhunt/shared/users';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export const putEmail = (email: string) =>
  apiRequest<z.infer<typeof userInData>>('PUT', `/user/email/${encodeURIComponent(email)}`);
