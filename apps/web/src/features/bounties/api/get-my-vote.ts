/** GET /vote/{claimId}: the stars the visitor gave this claim (0: none yet). */
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/query';
import { bountyKeys } from './keys';
import { myVotePath } from './requests';

export const myVoteQuery = (id: string) =>
  apiQueryOptions<number>(bountyKeys.myVote(id), myVotePath(id));

export const useMyVote = (id: string, enabled: boolean) =>
  useQuery({ ...myVoteQuery(id), enabled });
