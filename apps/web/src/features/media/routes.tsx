import { ROLE } from '@bountyhunt/shared/roles';
import type { AppRoute } from '../../lib/routes';

export const routes: AppRoute[] = [
  // Upload one image or video and see it as the feed and the profile viewer will show it.
  {
    path: '/upload',
    layout: 'body',
    showLogin: true,
    guard: { role: ROLE.any },
    page: () => import('./pages/upload-page'),
  },
];
