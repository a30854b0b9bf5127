import type { Claim } from '@bountyhunt/shared/bounties';
import { isImageKey } from '@bountyhunt/shared/media-keys';
import { ROLE } from '@bountyhunt/shared/roles';
import { preloadImage } from '../../lib/preload-image';
import { prefetchApi, prefetchApiQuery } from '../../lib/query';
import type { AppRoute } from '../../lib/routes';
import { mediaUrl } from '../../components/media/media-url';
import { bountyQuery } from './api/get-bounty';
import { claimQuery } from './api/get-claim';
import { claimRankQuery } from './api/get-claim-rank';
import { bountyFeedQuery } from './api/search-bounties';
import { newestRound, thumbs } from './early';

const signedIn = { role: ROLE.any, active: true };

/** The first screen's thumbnails: the LCP image is among them. */
function preloadThumbs(claims: Claim[] | undefined) {
  for (const t of thumbs(claims)) preloadImage(t.src);
}

export const routes: AppRoute[] = [
  {
    path: '/',
    layout: 'main',
    guard: signedIn,
    page: () => import('./pages/home-page'),
    prefetch: ({ searchParams }, queryClient) => {
      const feed = bountyFeedQuery((searchParams.get('q') ?? '').trim());
      const done = queryClient.prefetchInfiniteQuery(feed).then(() => {
        const first = queryClient.getQueryData(feed.queryKey)?.pages[0];
        if (first?.status === 200) preloadThumbs(first.data[0]?.rounds[0]?.claims);
      });
      prefetchApiQuery(queryClient, feed.queryKey, done);
    },
  },
  {
    path: '/bounty/create',
    layout: 'main',
    guard: { role: ROLE.member, active: true },
    page: () => import('./pages/create-page'),
  },
  {
    path: '/bounty/:id',
    layout: 'main',
    guard: signedIn,
    page: () => import('./pages/bounty-page'),
    prefetch: ({ params }, queryClient) =>
      prefetchApi(queryClient, bountyQuery(params.id ?? ''), (bounty) => {
        preloadThumbs(newestRound(bounty)?.claims);
      }),
  },
  {
    path: '/claim/:id',
    layout: 'main',
    guard: signedIn,
    page: () => import('./pages/claim-page'),
    prefetch: ({ params }, queryClient) => {
      prefetchApi(queryClient, claimQuery(params.id ?? ''), (claim) => {
        if (isImageKey(claim.media)) preloadImage(mediaUrl(claim.media, 'full'), 'high');
      });
      prefetchApi(queryClient, claimRankQuery(params.id ?? ''));
    },
  },
];
