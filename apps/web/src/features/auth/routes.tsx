import { ROLE } from '@bountyhunt/shared/roles';
import type { AppRoute } from '../../lib/routes';

export const routes: AppRoute[] = [
  { path: '/login', layout: 'body', page: () => import('./pages/login-page') },
  { path: '/forgot', layout: 'body', showLogin: true, page: () => import('./pages/forgot-page') },
  { path: '/reset/:id', layout: 'body', showLogin: true, page: () => import('./pages/reset-page') },
  {
    path: '/register/:role',
    layout: 'body',
    showLogin: true,
    page: () => import('./pages/register-page'),
  },
  { path: '/join', layout: 'body', showLogin: true, page: () => import('./pages/join-page') },
  {
    path: '/message',
    layout: 'main',
    guard: { role: ROLE.any, active: true },
    page: () => import('./pages/messages-page'),
  },
  { path: '*', layout: 'body', showLogin: true, page: () => import('./pages/not-found-page') },
];
