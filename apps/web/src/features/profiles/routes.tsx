import { ROLE } from '@bountyhunt/shared/roles';
import { preloadImage } from '../../lib/preload-image';
import { prefetchApi, prefetchApiQuery } from '../../lib/query';
import type { AppRoute } from '../../lib/routes';
import { hunterFeedQuery } from './api/get-hunter-feed';
import { hunterProfileQuery } from './api/get-hunter-profile';
import { profileImages } from './early';

const signedIn = { role: ROLE.any, active: true };
const hunters = { role: ROLE.hunter, active: true };

export const routes: AppRoute[] = [
  { path: '/profile', layout: 'main', guard: signedIn, page: () => import('./pages/profile-page') },
  {
    path: '/profile/edit',
    layout: 'main',
    guard: hunters,
    page: () => import('./pages/edit-profile-page'),
  },
  {
    path: '/profile/post',
    layout: 'main',
    guard: hunters,
    page: () => import('./pages/create-post-page'),
  },
  {
    path: '/profile/:handle',
    layout: 'main',
    guard: signedIn,
    page: () => import('./pages/profile-page'),
    prefetch: ({ params }, queryClient) => {
      if (!params.handle) return;
      prefetchApi(queryClient, hunterProfileQuery(params.handle), (profile) => {
        for (const img of profileImages(profile)) preloadImage(img.src, img.priority);
        // The feed needs the hunter's id: ask for it as soon as the profile answers.
        const feed = hunterFeedQuery(profile.hunterId);
        prefetchApiQuery(queryClient, feed.queryKey, queryClient.prefetchInfiniteQuery(feed));
      });
    },
  },
  {
    path: '/bounty/post/:id',
    layout: 'main',
    guard: hunters,
    page: () => import('./pages/create-post-page'),
  },
  // SPEC.md §2 shows only a 'Hunters' placeholder; this is a real directory (issue 8).
  { path: '/hunters', layout: 'main', guard: signedIn, page: () => import('./pages/hunters-page') },
  {
    path: '/creators',
    layout: 'main',
    guard: signedIn,
    page: () => import('./pages/hunters-page'),
  },
];
