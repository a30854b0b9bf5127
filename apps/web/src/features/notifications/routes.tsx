import { ROLE } from '@bountyhunt/shared/roles';
import type { AppRoute } from '../../lib/routes';

/** Notifications (issue 19): the list (the header's bell opens it) and their settings. */
export const routes: AppRoute[] = [
  {
    path: '/notifications',
    layout: 'main',
    guard: { role: ROLE.any, active: true },
    page: () => import('./pages/notifications-page'),
  },
  {
    path: '/account/notifications',
    layout: 'body',
    showLogin: true,
    guard: { role: ROLE.any },
    page: () => import('./pages/settings-page'),
  },
];
