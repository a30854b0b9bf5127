/** PUT /user/bank → `{user}`. */
import type { userInData } from '@bountyhunt/shared/users';
import type { bankSchema } from '@bountyhunt/shared/account';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type BankBody = z.infer<typeof bankSchema>;

export const putBank = (b: BankBody) =>
  apiRequest<z.infer<typeof userInData>>('PUT', '/user/bank', b);
