/**
 * POST /user/membership → 200 with the user (charged, active one month ahead, silver
 * credited); the cached billing answers are then asked again.
 */
import type { User } from '@bountyhunt/shared/users';
import { useQueryClient } from '@tanstack/react-query';
import { useApiMutation } from '../../../lib/query';
import type { CardBody } from './card-body';
import { billingKeys } from './keys';

export function useStartMembership() {
  const queryClient = useQueryClient();
  return useApiMutation<CardBody, User>('POST', '/user/membership', {
    onOk: () => void queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
