import { ROLE } from '@bountyhunt/shared/roles';
import { notBuilt } from '../../components/not-built';
import type { AppRoute } from '../../lib/routes';

// /account/payment and /account/tokens belong to the billing feature.
const everyone = { role: ROLE.any };
const hunters = { role: ROLE.hunter };

export const routes: AppRoute[] = [
  {
    path: '/account',
    layout: 'body',
    showLogin: true,
    guard: everyone,
    page: notBuilt('Settings'),
  },
  {
    path: '/account/email',
    layout: 'body',
    showLogin: true,
    guard: everyone,
    page: notBuilt('Change Email'),
  },
  {
    path: '/account/password',
    layout: 'body',
    showLogin: true,
    guard: everyone,
    page: notBuilt('Change Password'),
  },
  {
    path: '/account/handle',
    layout: 'body',
    showLogin: true,
    guard: everyone,
    page: notBuilt('Handle'),
  },
  {
    path: '/account/bio',
    layout: 'body',
    showLogin: true,
    guard: hunters,
    page: notBuilt('Create Your Biography'),
  },
  {
    path: '/account/picture',
    layout: 'body',
    showLogin: true,
    guard: hunters,
    page: notBuilt('Set Your Profile Picture'),
  },
  {
    path: '/account/stagename',
    layout: 'body',
    showLogin: true,
    guard: hunters,
    page: notBuilt('Stage Name'),
  },
  {
    path: '/account/name',
    layout: 'body',
    showLogin: true,
    guard: hunters,
    page: notBuilt('Legal Name'),
  },
  {
    path: '/account/address',
    layout: 'body',
    showLogin: true,
    guard: hunters,
    page: notBuilt('Address'),
  },
  {
    path: '/account/ssn',
    layout: 'body',
    showLogin: true,
    guard: hunters,
    page: notBuilt('Social Security Number'),
  },
  {
    path: '/account/identity',
    layout: 'body',
    showLogin: true,
    guard: hunters,
    page: notBuilt('Identity Verification'),
  },
  {
    path: '/account/bank',
    layout: 'body',
    showLogin: true,
    guard: hunters,
    page: notBuilt('Direct Deposit'),
  },
  {
    path: '/signup/handle/user',
    layout: 'body',
    showLogin: true,
    guard: { role: ROLE.member },
    page: notBuilt('Create Public User Handle'),
  },
  {
    path: '/enrollment/handle',
    layout: 'body',
    showLogin: true,
    guard: hunters,
    page: notBuilt('Create Your Handle'),
  },
  {
    path: '/enrollment/stagename',
    layout: 'body',
    showLogin: true,
    guard: hunters,
    page: notBuilt('Confirm Stage Name'),
  },
];
