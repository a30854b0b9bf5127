/**
 * Mounts every `features/<feature>/routes.tsx` (found by Vite at build time). Features never
 * need to edit this file: they export `routes: AppRoute[]` from their own routes.tsx.
 *
 * The app uses React Router's declarative mode (`<BrowserRouter>` + `useRoutes`): it has no
 * loaders or actions, and the data router (`createBrowserRouter`) cost ~16 KB more gzipped
 * JavaScript on every first load. Errors a page throws are caught by route-table.tsx.
 */
import type { QueryClient } from '@tanstack/react-query';
import { matchRoutes, type RouteObject } from 'react-router';
import { getToken } from '../lib/api-client';
import type { AppRoute } from '../lib/routes';
import { buildRouteTable, type RouteHandle } from './route-table';

const modules = import.meta.glob<{ routes: AppRoute[] }>('../features/*/routes.tsx', {
  eager: true,
});

export const appRoutes: AppRoute[] = Object.values(modules).flatMap((m) => m.routes);

/**
 * The route table, with the first page's chunk and queries started at once: they load
 * alongside GET /user rather than after the session resolves and the page renders (its guard
 * shows a spinner until then).
 */
export function createAppRoutes(
  queryClient: QueryClient,
  location: { pathname: string; search: string } = window.location,
): RouteObject[] {
  const routes = buildRouteTable(appRoutes);
  const searchParams = new URLSearchParams(location.search);
  for (const match of matchRoutes(routes, location.pathname) ?? []) {
    const handle = match.route.handle as RouteHandle | undefined;
    handle?.preload().catch(() => undefined);
    // Without a token every guarded page sends the visitor away: nothing worth asking.
    if (getToken()) handle?.prefetch?.({ params: match.params, searchParams }, queryClient);
  }
  return routes;
}
