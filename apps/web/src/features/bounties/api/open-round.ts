/** POST /bounty/{id}/round: the poster opens the next round; the answer is the bounty. */
import type { Bounty, roundCreateSchema } from '@bountyhunt/shared/bounties';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { useApiMutation } from '../../../lib/query';
import { bountyKeys } from './keys';

export type OpenRoundBody = z.input<typeof roundCreateSchema>;

export function useOpenRound(bountyId: number) {
  const queryClient = useQueryClient();
  return useApiMutation<OpenRoundBody, Bounty>('POST', `/bounty/${bountyId}/round`, {
    onOk: (res) => {
      queryClient.setQueryData(bountyKeys.bounty(String(bountyId)), res);
      void queryClient.invalidateQueries({ queryKey: bountyKeys.feeds() });
    },
  });
}
