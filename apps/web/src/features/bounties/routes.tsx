import { ROLE } from '@bountyhunt/shared/roles';
import { notBuilt } from '../../components/not-built';
import type { AppRoute } from '../../lib/routes';

const signedIn = { role: ROLE.any, active: true };

export const routes: AppRoute[] = [
  { path: '/', layout: 'main', guard: signedIn, page: notBuilt('Bounties') },
  {
    path: '/bounty/create',
    layout: 'main',
    guard: { role: ROLE.member, active: true },
    page: notBuilt('Post Bounty'),
  },
  { path: '/bounty/:id', layout: 'main', guard: signedIn, page: notBuilt('Bounty') },
  { path: '/claim/:id', layout: 'main', guard: signedIn, page: notBuilt('Claim') },
];
