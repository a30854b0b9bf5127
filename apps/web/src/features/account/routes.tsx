import { ROLE } from '@bountyhunt/shared/roles';
import type { AppRoute, GuardSpec } from '../../lib/routes';

// /account/payment and /account/tokens belong to the billing feature.
const everyone: GuardSpec = { role: ROLE.any };
const hunters: GuardSpec = { role: ROLE.hunter };
const settings = (path: string, guard: GuardSpec, page: AppRoute['page']): AppRoute => ({
  path,
  layout: 'body',
  showLogin: true,
  guard,
  page,
});

export const routes: AppRoute[] = [
  settings('/account', everyone, () => import('./pages/account-home')),
  settings('/account/email', everyone, () => import('./pages/email-page')),
  settings('/account/password', everyone, () => import('./pages/password-page')),
  settings('/account/handle', everyone, () => import('./pages/handle-page')),
  settings('/account/bio', hunters, () => import('./pages/bio-page')),
  settings('/account/picture', hunters, () => import('./pages/picture-page')),
  settings('/account/stagename', hunters, () => import('./pages/stagename-page')),
  settings('/account/name', hunters, () => import('./pages/name-page')),
  settings('/account/address', hunters, () => import('./pages/address-page')),
  settings('/account/ssn', hunters, () => import('./pages/ssn-page')),
  settings('/account/identity', hunters, () => import('./pages/identity-page')),
  settings('/account/bank', hunters, () => import('./pages/bank-page')),
  // Member sign-up step 3 (the signup flow is for members only, SPEC.md §6).
  settings(
    '/signup/handle/user',
    { role: ROLE.member },
    () => import('./pages/signup-handle-page'),
  ),
  // Creator enrollment steps 2 and 3.
  settings('/enrollment/handle', hunters, () => import('./pages/enrollment-handle-page')),
  settings('/enrollment/stagename', hunters, () => import('./pages/enrollment-stagename-page')),
];
