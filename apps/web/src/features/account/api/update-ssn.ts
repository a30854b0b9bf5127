/** PUT /user/ssn/{ssn}: the nine digits go in the path → `{user}`. */
import type { userInData } from '@bountyhunt/shared/users';
import type { ssnSchema } from '@bountyhunt/shared/account';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export const putSsn = (ssn: z.infer<typeof ssnSchema>['ssn']) =>
  apiRequest<z.infer<typeof userInData>>('PUT', `/user/ssn/${encodeURIComponent(ssn)}`);
