/** POST /bounty: a new bounty (its first round opens at once); the feeds then show it. */
import type { Bounty, bountyCreateSchema } from '@bountyhunt/shared/bounties';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { useApiMutation } from '../../../lib/query';
import { bountyKeys } from './keys';

export type CreateBountyBody = z.input<typeof bountyCreateSchema>;

export function useCreateBounty() {
  const queryClient = useQueryClient();
  return useApiMutation<CreateBountyBody, Bounty>('POST', '/bounty', {
    onOk: () => void queryClient.invalidateQueries({ queryKey: bountyKeys.feeds() }),
  });
}
