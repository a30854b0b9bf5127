import { ROLE } from '@bountyhunt/shared/roles';
import { notBuilt } from '../../components/not-built';
import type { AppRoute } from '../../lib/routes';

export const routes: AppRoute[] = [
  { path: '/login', layout: 'body', page: notBuilt('Sign In') },
  { path: '/forgot', layout: 'body', showLogin: true, page: notBuilt('Password Recovery') },
  { path: '/reset/:id', layout: 'body', showLogin: true, page: notBuilt('Change Your Password') },
  { path: '/register/:role', layout: 'body', showLogin: true, page: notBuilt('Create Account') },
  { path: '/join', layout: 'body', showLogin: true, page: notBuilt('Join BountyHunt') },
  {
    path: '/message',
    layout: 'main',
    guard: { role: ROLE.any, active: true },
    page: notBuilt('Messages'),
  },
  { path: '*', layout: 'body', showLogin: true, page: notBuilt('Page not found') },
];
