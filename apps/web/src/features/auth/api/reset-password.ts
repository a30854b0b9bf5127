/** PUT /user/reset: a new password for the reset link's code (204; 400: bad code). */
import type { ResetInput } from '@bountyhunt/shared/auth';
import { apiRequest } from '../../../lib/api-client';

export const resetPassword = (body: ResetInput) => apiRequest('PUT', '/user/reset', body);
