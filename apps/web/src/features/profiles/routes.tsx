import { ROLE } from '@bountyhunt/shared/roles';
import { prefetchApiQuery } from '../../lib/query';
import type { AppRoute } from '../../lib/routes';
import { hunterProfileQuery } from './api/profile-api';

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
      const profile = hunterProfileQuery(params.handle);
      prefetchApiQuery(queryClient, profile.queryKey, queryClient.prefetchQuery(profile));
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
