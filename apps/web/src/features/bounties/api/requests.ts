/**
 * The bounties feature's requests as plain data: the query options (this folder) and the
 * early script (../early.ts) build them here, so an early request is the very one the page
 * sends.
 */
import type { BountySearchInput } from '@bountyhunt/shared/bounties';

export const FEED_PAGE_SIZE = 8;

export type SearchBody = Pick<BountySearchInput, 'term' | 'excludeId' | 'limit' | 'cursor'>;

/** POST /bounty/search: one feed page. */
export function feedSearchBody(term: string, excludeId?: number, cursor?: string): SearchBody {
  return {
    term,
    ...(excludeId !== undefined ? { excludeId } : {}),
    limit: FEED_PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
  };
}

export const bountyPath = (id: string) => `/bounty/${id}`;
export const claimPath = (id: string) => `/claim/${id}`;
export const claimRankPath = (id: string) => `/claim/rank/${id}`;
export const myVotePath = (id: string) => `/vote/${id}`;
