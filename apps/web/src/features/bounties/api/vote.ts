/** POST /vote: a member's 1–5 stars on a claim (each star costs 1 silver). */
import type { voteSchema } from '@bountyhunt/shared/bounties';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ApiResult } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/query';
import { bountyKeys } from './keys';

export type VoteBody = z.infer<typeof voteSchema>;

/** On success the vote shows at once; the claim (votes, rank) and the feeds are asked again. */
export function useVote() {
  const queryClient = useQueryClient();
  return useApiMutation<VoteBody, { votes: number }>('POST', '/vote', {
    onOk: (_res, { claimId, votes }) => {
      const id = String(claimId);
      queryClient.setQueryData(bountyKeys.myVote(id), {
        status: 200,
        data: votes,
        message: '',
      } satisfies ApiResult<number>);
      void queryClient.invalidateQueries({ queryKey: bountyKeys.claim(id) });
      void queryClient.invalidateQueries({ queryKey: bountyKeys.feeds() });
    },
  });
}
