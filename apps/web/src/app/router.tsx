/**
 * Mounts every `features/<feature>/routes.tsx` (found by Vite at build time). Features never
 * need to edit this file: they export `routes: AppRoute[]` from their own routes.tsx.
 */
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter } from 'react-router';
import { getToken } from '../lib/api-client';
import type { AppRoute } from '../lib/routes';
import { buildRouteTable, type RouteHandle } from './route-table';

const modules = import.meta.glob<{ routes: AppRoute[] }>('../features/*/routes.tsx', {
  eager: true,
});

export const appRoutes: AppRoute[] = Object.values(modules).flatMap((m) => m.routes);

export function createAppRouter(queryClient: QueryClient) {
  const router = createBrowserRouter(buildRouteTable(appRoutes));
  // The first page's chunk and queries load alongside GET /user rather than after the
  // session resolves and the page renders (its guard shows a spinner until then).
  const searchParams = new URLSearchParams(router.state.location.search);
  for (const match of router.state.matches) {
    const handle = match.route.handle as RouteHandle | undefined;
    handle?.preload().catch(() => undefined);
    // Without a token every guarded page sends the visitor away: nothing worth asking.
    if (getToken()) handle?.prefetch?.({ params: match.params, searchParams }, queryClient);
  }
  return router;
}
