/**
 * The bounties feature's query keys, in one place: the queries build their keys here and the
 * mutations invalidate through it. Everything sits under `['bounties']`.
 */
export const bountyKeys = {
  all: ['bounties'] as const,
  /** Every feed page (POST /bounty/search), whatever the term. */
  feeds: () => [...bountyKeys.all, 'search'] as const,
  feed: (term: string, excludeId?: number, claimId?: number) =>
    [...bountyKeys.feeds(), term, excludeId ?? null, claimId ?? null] as const,
  bounty: (id: string) => [...bountyKeys.all, 'bounty', id] as const,
  /** A claim, and under it its rank and the visitor's vote. */
  claim: (id: string) => [...bountyKeys.all, 'claim', id] as const,
  claimRank: (id: string) => [...bountyKeys.claim(id), 'rank'] as const,
  myVote: (id: string) => [...bountyKeys.claim(id), 'vote'] as const,
};
