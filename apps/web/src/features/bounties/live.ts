/**
 * The bounties feature's live events: a page that shows a bounty (the bounty page, a claim
 * page) calls `useBountyLive(bountyId)`. The stream then sends that bounty's `tally` events
 * (its round's vote counts and ranks), patched into the cached bounty, feed pages, claims and
 * ranks so the numbers and the order move without asking again, and its `claim` events (a new
 * claim), which ask for the bounty again.
 */
import type { Bounty, Claim } from '@bountyhunt/shared/bounties';
import type { LiveEvent } from '@bountyhunt/shared/live';
import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ApiPage, ApiResult } from '../../lib/api-client';
import { useLiveEvent, useLiveWatch } from '../../lib/live';
import { bountyKeys } from './api/keys';

type Tally = Extract<LiveEvent, { type: 'tally' }>;

const ok = <T>(res: ApiResult<T> | undefined): res is ApiResult<T> => res?.status === 200;

/** The tally's votes on a round's claims, the claims then in rank order. */
export function patchBountyTally(bounty: Bounty, tally: Tally): Bounty {
  if (bounty.bountyId !== tally.bountyId) return bounty;
  const byId = new Map(tally.claims.map((c) => [c.claimId, c]));
  return {
    ...bounty,
    rounds: bounty.rounds.map((round) => {
      if (round.roundId !== tally.roundId) return round;
      const claims = round.claims.map((c) => {
        const t = byId.get(c.claimId);
        return t && t.votes !== c.votes ? { ...c, votes: t.votes } : c;
      });
      // Claims the tally leaves out keep their order, after the ranked ones.
      const rank = (c: Claim) => byId.get(c.claimId)?.rank ?? Number.MAX_SAFE_INTEGER;
      const order = new Map(claims.map((c, i) => [c.claimId, i]));
      claims.sort((a, b) => rank(a) - rank(b) || order.get(a.claimId)! - order.get(b.claimId)!);
      return { ...round, claims };
    }),
  };
}

export function applyTally(client: QueryClient, tally: Tally): void {
  client.setQueryData<ApiResult<Bounty>>(bountyKeys.bounty(String(tally.bountyId)), (old) =>
    ok(old) ? { ...old, data: patchBountyTally(old.data, tally) } : old,
  );
  // Feed pages that show this bounty (the home feed, "More bounties").
  client.setQueriesData<InfiniteData<ApiPage<Bounty>>>({ queryKey: bountyKeys.feeds() }, (old) =>
    old?.pages
      ? {
          ...old,
          pages: old.pages.map((p) =>
            p.data.some((b) => b.bountyId === tally.bountyId)
              ? { ...p, data: p.data.map((b) => patchBountyTally(b, tally)) }
              : p,
          ),
        }
      : old,
  );
  for (const t of tally.claims) {
    const id = String(t.claimId);
    client.setQueryData<ApiResult<Claim>>(bountyKeys.claim(id), (old) =>
      ok(old) && old.data.votes !== t.votes
        ? { ...old, data: { ...old.data, votes: t.votes } }
        : old,
    );
    client.setQueryData<ApiResult<number>>(bountyKeys.claimRank(id), (old) =>
      ok(old) && old.data !== t.rank ? { ...old, data: t.rank } : old,
    );
  }
}

export function applyBountyEvent(client: QueryClient, event: LiveEvent): void {
  if (event.type === 'tally') applyTally(client, event);
  else if (event.type === 'claim') {
    void client.invalidateQueries({ queryKey: bountyKeys.bounty(String(event.bountyId)) });
    void client.invalidateQueries({ queryKey: bountyKeys.feeds() });
  }
}

/** Watch this bounty's tallies and claims while mounted. */
export function useBountyLive(bountyId: number | null | undefined): void {
  const client = useQueryClient();
  useLiveWatch(bountyId);
  useLiveEvent((event) => {
    if ((event.type === 'tally' || event.type === 'claim') && event.bountyId === bountyId)
      applyBountyEvent(client, event);
  });
}
