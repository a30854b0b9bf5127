/** PUT /user/password: 204 when the current password matched. */
import type { passwordChangeSchema } from '@bountyhunt/shared/account';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type PasswordChangeBody = z.infer<typeof passwordChangeSchema>;

export const putPassword = (oldPassword: string, newPassword: string) =>
  apiRequest<null>('PUT', '/user/password', {
    oldPassword,
    newPassword,
  } satisfies PasswordChangeBody);
