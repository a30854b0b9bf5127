import type { AppRoute } from '../../lib/routes';

/** Any address no other feature declares (React Router ranks `*` last). */
export const routes: AppRoute[] = [
  { path: '*', layout: 'body', showLogin: true, page: () => import('./pages/not-found-page') },
];
