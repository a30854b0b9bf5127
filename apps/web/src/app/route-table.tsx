/** Turns the features' route lists into React Router route objects, grouped by layout. */
import { lazy, Suspense } from 'react';
import { Outlet, type RouteObject } from 'react-router';
import { Guard } from '../components/guard';
import { BodyLayout } from '../components/layouts/body-layout';
import { MainLayout } from '../components/layouts/main-layout';
import { PageSpinner } from '../components/page-spinner';
import { ScrollToTop } from '../components/scroll-to-top';
import type { AppRoute } from '../lib/routes';
import { RouteError } from './route-error';

/** Two features claiming one path is a bug: say which. */
export function findDuplicatePaths(routes: AppRoute[]): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const r of routes) {
    const key = r.path.replace(/:[^/]+/g, ':param').replace(/\/$/, '') || '/';
    if (seen.has(key)) dups.add(r.path);
    seen.add(key);
  }
  return [...dups];
}

function routeObject(r: AppRoute): RouteObject {
  const Page = lazy(r.page);
  const content = (
    <Suspense fallback={<PageSpinner />}>
      <Page />
    </Suspense>
  );
  return {
    path: r.path,
    element: r.guard ? <Guard {...r.guard}>{content}</Guard> : content,
    handle: { preload: r.page, prefetch: r.prefetch } satisfies RouteHandle,
  };
}

/** What each page route carries for the router: how to start loading its page chunk. */
export interface RouteHandle {
  preload: () => Promise<unknown>;
  prefetch?: AppRoute['prefetch'];
}

function Root() {
  return (
    <>
      <ScrollToTop />
      <Outlet />
    </>
  );
}

export function buildRouteTable(routes: AppRoute[]): RouteObject[] {
  const dups = findDuplicatePaths(routes);
  if (dups.length) console.error(`Routes declared twice: ${dups.join(', ')}`);
  const groups = [
    { element: <MainLayout />, pick: (r: AppRoute) => r.layout === 'main' },
    {
      element: <BodyLayout showLogin />,
      pick: (r: AppRoute) => r.layout === 'body' && !!r.showLogin,
    },
    { element: <BodyLayout />, pick: (r: AppRoute) => r.layout === 'body' && !r.showLogin },
    { element: <Outlet />, pick: (r: AppRoute) => r.layout === 'none' },
  ];
  return [
    {
      element: <Root />,
      errorElement: <RouteError />,
      children: groups.map((g) => ({
        element: g.element,
        children: routes.filter(g.pick).map(routeObject),
      })),
    },
  ];
}
