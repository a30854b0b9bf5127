/** GET /claim/rank/{id}: the claim's place in its round (1 = first). */
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/query';
import { bountyKeys } from './keys';
import { claimRankPath } from './requests';

export const claimRankQuery = (id: string) =>
  apiQueryOptions<number>(bountyKeys.claimRank(id), claimRankPath(id));

export const useClaimRank = (id: string) => useQuery(claimRankQuery(id));
