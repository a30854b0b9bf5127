/** POST /claim: a hunter's claim in the bounty's current round. */
import type { Claim, ClaimCreateInput } from '@bountyhunt/shared/bounties';
import { useQueryClient } from '@tanstack/react-query';
import { useApiMutation } from '../../../lib/query';
import { bountyKeys } from './keys';

export function useCreateClaim() {
  const queryClient = useQueryClient();
  return useApiMutation<ClaimCreateInput, Claim>('POST', '/claim', {
    onOk: (_res, { bountyId }) => {
      void queryClient.invalidateQueries({ queryKey: bountyKeys.bounty(String(bountyId)) });
      void queryClient.invalidateQueries({ queryKey: bountyKeys.feeds() });
    },
  });
}
