/**
 * The sign-in pages a new visitor opens first: index.html's early script preloads their page
 * chunk while the app's script downloads (lib/early.ts), for visitors without a session too.
 * No React here: this is part of that script.
 */
import type { EarlyRoute } from '../../lib/early';

export const publicRoutes: EarlyRoute[] = [
  { path: '/join', page: 'features/auth/pages/join-page.tsx', calls: () => [] },
  { path: '/login', page: 'features/auth/pages/login-page.tsx', calls: () => [] },
  { path: '/register/:role', page: 'features/auth/pages/register-page.tsx', calls: () => [] },
];
