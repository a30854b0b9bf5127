/** GET /bounty/{id}: the bounty with its rounds and their claims. */
import type { Bounty } from '@bountyhunt/shared/bounties';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/query';
import { bountyKeys } from './keys';
import { bountyPath } from './requests';

export const bountyQuery = (id: string) =>
  apiQueryOptions<Bounty>(bountyKeys.bounty(id), bountyPath(id));

export const useBounty = (id: string) => useQuery(bountyQuery(id));
