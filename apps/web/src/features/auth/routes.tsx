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
];
