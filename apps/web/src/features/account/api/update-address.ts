/** PUT /user/address → `{user}`. */
import type { userInData } from '@bountyhunt/shared/users';
import type { addressSchema } from '@bountyhunt/shared/account';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type AddressBody = z.infer<typeof addressSchema>;

export const putAddress = (a: AddressBody) =>
  apiRequest<z.infer<typeof userInData>>('PUT', '/user/address', a);
