/**
 * Mounts every `features/<feature>/routes.tsx` (found by Vite at build time). Features never
 * need to edit this file: they export `routes: AppRoute[]` from their own routes.tsx.
 */
import { createBrowserRouter } from 'react-router';
import type { AppRoute } from '../lib/routes';
import { buildRouteTable } from './route-table';

const modules = import.meta.glob<{ routes: AppRoute[] }>('../features/*/routes.tsx', {
  eager: true,
});

export const appRoutes: AppRoute[] = Object.values(modules).flatMap((m) => m.routes);

export function createAppRouter() {
  return createBrowserRouter(buildRouteTable(appRoutes));
}
