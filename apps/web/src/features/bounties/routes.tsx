import { ROLE } from '@bountyhunt/shared/roles';
import { prefetchApiQuery } from '../../lib/query';
import type { AppRoute } from '../../lib/routes';
import { bountyFeedQuery, bountyQuery, claimQuery, claimRankQuery } from './api';

const signedIn = { role: ROLE.any, active: true };

export const routes: AppRoute[] = [
  {
    path: '/',
    layout: 'main',
    guard: signedIn,
    page: () => import('./home-page'),
    prefetch: ({ searchParams }, queryClient) => {
      const feed = bountyFeedQuery((searchParams.get('q') ?? '').trim());
      prefetchApiQuery(queryClient, feed.queryKey, queryClient.prefetchInfiniteQuery(feed));
    },
  },
  {
    path: '/bounty/create',
    layout: 'main',
    guard: { role: ROLE.member, active: true },
    page: () => import('./create-page'),
  },
  {
    path: '/bounty/:id',
    layout: 'main',
    guard: signedIn,
    page: () => import('./bounty-page'),
    prefetch: ({ params }, queryClient) => {
      const bounty = bountyQuery(params.id ?? '');
      prefetchApiQuery(queryClient, bounty.queryKey, queryClient.prefetchQuery(bounty));
    },
  },
  {
    path: '/claim/:id',
    layout: 'main',
    guard: signedIn,
    page: () => import('./claim-page'),
    prefetch: ({ params }, queryClient) => {
      const claim = claimQuery(params.id ?? '');
      const rank = claimRankQuery(params.id ?? '');
      prefetchApiQuery(queryClient, claim.queryKey, queryClient.prefetchQuery(claim));
      prefetchApiQuery(queryClient, rank.queryKey, queryClient.prefetchQuery(rank));
    },
  },
];
