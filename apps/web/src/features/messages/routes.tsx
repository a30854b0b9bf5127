import { ROLE } from '@bountyhunt/shared/roles';
import type { AppRoute } from '../../lib/routes';

export const routes: AppRoute[] = [
  {
    path: '/message',
    layout: 'main',
    guard: { role: ROLE.any, active: true },
    page: () => import('./pages/messages-page'),
  },
];
