import { ROLE } from '@bountyhunt/shared/roles';
import type { AppRoute } from '../../lib/routes';

const signedIn = { role: ROLE.any, active: true };

export const routes: AppRoute[] = [
  { path: '/', layout: 'main', guard: signedIn, page: () => import('./home-page') },
  {
    path: '/bounty/create',
    layout: 'main',
    guard: { role: ROLE.member, active: true },
    page: () => import('./create-page'),
  },
  { path: '/bounty/:id', layout: 'main', guard: signedIn, page: () => import('./bounty-page') },
  { path: '/claim/:id', layout: 'main', guard: signedIn, page: () => import('./claim-page') },
];
