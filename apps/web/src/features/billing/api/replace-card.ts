/** PUT /user/card → 204; the cached billing answers (card on file) are then asked again. */
import { useQueryClient } from '@tanstack/react-query';
import { useApiMutation } from '../../../lib/query';
import type { CardBody } from './card-body';
import { billingKeys } from './keys';

export function useReplaceCard() {
  const queryClient = useQueryClient();
  return useApiMutation<CardBody, null>('PUT', '/user/card', {
    // Awaited: the account page the member goes to next shows the new card.
    onOk: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
