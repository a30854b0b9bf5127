import { ROLE } from '@bountyhunt/shared/roles';
import { notBuilt } from '../../components/not-built';
import type { AppRoute } from '../../lib/routes';

const members = { role: ROLE.member };

export const routes: AppRoute[] = [
  {
    path: '/signup/plan',
    layout: 'body',
    showLogin: true,
    guard: members,
    page: notBuilt('Choose Your Plan'),
  },
  {
    path: '/signup/payment',
    layout: 'body',
    showLogin: true,
    guard: members,
    page: notBuilt('Payment'),
  },
  {
    path: '/account/payment',
    layout: 'body',
    showLogin: true,
    guard: members,
    page: notBuilt('Credit Card'),
  },
  {
    path: '/account/tokens',
    layout: 'body',
    showLogin: true,
    guard: members,
    page: notBuilt('Silver'),
  },
];
