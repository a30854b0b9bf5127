import { ROLE } from '@bountyhunt/shared/roles';
import type { AppRoute } from '../../lib/routes';

/** The hunter's money pages (issue 18), linked from Settings. */
export const routes: AppRoute[] = [
  {
    path: '/account/earnings',
    layout: 'body',
    showLogin: true,
    guard: { role: ROLE.hunter },
    page: () => import('./pages/earnings-page'),
  },
  {
    path: '/account/tax-forms',
    layout: 'body',
    showLogin: true,
    guard: { role: ROLE.hunter },
    page: () => import('./pages/tax-forms-page'),
  },
];
