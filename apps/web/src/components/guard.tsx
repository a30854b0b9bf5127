import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { passesGuard } from '../lib/access';
import type { GuardSpec } from '../lib/routes';
import { useSession } from '../lib/session';
import { PageSpinner } from './page-spinner';

/**
 * SPEC.md §4 Role guard: spinner while the session is unresolved; a user lacking the role
 * (or, with `active`, a lapsed member or a hunter without a handle) goes to /join; a user
 * whose session the server just ended (a 401 while signed in) goes to /login.
 * Routes get it from `guard` in routes.tsx; use it directly as `<Guard role={1}>…</Guard>`.
 */
export function Guard({ role, active, children }: GuardSpec & { children: ReactNode }) {
  const { status, user, hunter, ended } = useSession();
  if (status === 'unresolved') return <PageSpinner />;
  if (!passesGuard(user, hunter, { role, active }))
    return <Navigate to={ended ? '/login' : '/join'} replace />;
  return <>{children}</>;
}
