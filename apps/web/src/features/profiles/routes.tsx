import { ROLE } from '@bountyhunt/shared/roles';
import { notBuilt } from '../../components/not-built';
import type { AppRoute } from '../../lib/routes';

const signedIn = { role: ROLE.any, active: true };
const hunters = { role: ROLE.hunter, active: true };

export const routes: AppRoute[] = [
  { path: '/profile', layout: 'main', guard: signedIn, page: notBuilt('Profile') },
  { path: '/profile/edit', layout: 'main', guard: hunters, page: notBuilt('Edit Profile') },
  { path: '/profile/post', layout: 'main', guard: hunters, page: notBuilt('Create Post') },
  { path: '/profile/:handle', layout: 'main', guard: signedIn, page: notBuilt('Profile') },
  { path: '/bounty/post/:id', layout: 'main', guard: hunters, page: notBuilt('Create Post') },
  // SPEC.md §2: the Hunters list is a placeholder showing the text 'Hunters'.
  { path: '/hunters', layout: 'main', guard: signedIn, page: () => import('./hunters-page') },
  { path: '/creators', layout: 'main', guard: signedIn, page: () => import('./hunters-page') },
];
