/** GET /claim/{id}: one claim with its hunter, bounty and round. */
import type { Claim } from '@bountyhunt/shared/bounties';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/query';
import { bountyKeys } from './keys';
import { claimPath } from './requests';

export const claimQuery = (id: string) =>
  apiQueryOptions<Claim>(bountyKeys.claim(id), claimPath(id));

export const useClaim = (id: string) => useQuery(claimQuery(id));
