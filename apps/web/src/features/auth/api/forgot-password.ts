/** POST /email/password/{email}: sends a reset link (204; 404: unknown address). */
import type { forgotSchema } from '@bountyhunt/shared/auth';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export const forgotPassword = ({ email }: z.infer<typeof forgotSchema>) =>
  apiRequest('POST', `/email/password/${encodeURIComponent(email)}`);
