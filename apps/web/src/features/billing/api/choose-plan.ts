/** PUT /user/membership/{planIndex} → 200 with the user. */
import type { User } from '@bountyhunt/shared/users';
import { useApiMutation } from '../../../lib/query';

export const useChoosePlan = () =>
  useApiMutation<{ planIndex: number }, User>('PUT', (v) => `/user/membership/${v.planIndex}`, {
    body: false,
  });
