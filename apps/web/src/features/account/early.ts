/**
 * /account needs only GET /user (which the early script always starts): its page chunk is
 * preloaded at once (lib/early.ts). No React here: this is part of that script.
 */
import type { EarlyRoute } from '../../lib/early';

export const earlyRoutes: EarlyRoute[] = [
  { path: '/account', page: 'features/account/pages/account-home.tsx', calls: () => [] },
];
