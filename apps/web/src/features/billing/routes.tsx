import { ROLE } from '@bountyhunt/shared/roles';
import type { AppRoute } from '../../lib/routes';

// Plan, card and silver are for members (SPEC.md §6); the pages themselves send a member
// whose membership is running from the signup steps to /join (SPEC.md §4 Membership).
const members = { role: ROLE.member };

export const routes: AppRoute[] = [
  {
    path: '/signup/plan',
    layout: 'body',
    showLogin: true,
    guard: members,
    page: () => import('./pages/plan-page'),
  },
  {
    path: '/signup/payment',
    layout: 'body',
    showLogin: true,
    guard: members,
    page: () => import('./pages/signup-payment-page'),
  },
  {
    path: '/account/payment',
    layout: 'body',
    showLogin: true,
    guard: members,
    page: () => import('./pages/account-payment-page'),
  },
  {
    path: '/account/tokens',
    layout: 'body',
    showLogin: true,
    guard: members,
    page: () => import('./pages/tokens-page'),
  },
];
