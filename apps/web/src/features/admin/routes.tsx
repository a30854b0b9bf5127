import { ROLE } from '@bountyhunt/shared/roles';
import type { AppRoute } from '../../lib/routes';

/**
 * The operations console (issue 17): one lazy route for everything under /admin, so members
 * never download it; its own layout, nav and pages live in admin-app.tsx. Admins only (role
 * bit 4); the API refuses every /admin call until the session has passed the second factor.
 */
export const routes: AppRoute[] = [
  {
    path: '/admin/*',
    layout: 'none',
    guard: { role: ROLE.admin },
    page: () => import('./admin-app'),
  },
];
