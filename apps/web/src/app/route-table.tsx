/** Turns the features' route lists into React Router route objects, grouped by layout. */
import { Component, lazy, Suspense, type ReactNode } from 'react';
import { Outlet, useLocation, type RouteObject } from 'react-router';
import { Guard } from '../components/guard';
import { BodyLayout } from '../components/layouts/body-layout';
import { MainLayout } from '../components/layouts/main-layout';
import { PageShown } from '../components/layouts/page-shown';
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

/**
 * A page chunk as a lazy component that does not suspend when the chunk is already loaded
 * (router.tsx preloads the first page's alongside GET /user): React.lazy given a pending
 * promise would show the spinner once more, and React holds a revealed fallback back for
 * 300 ms. A thenable that answers at once lets React render the page in the same pass.
 */
function lazyPage(load: AppRoute['page']) {
  let loaded: Awaited<ReturnType<AppRoute['page']>> | null = null;
  const preload = () =>
    load().then((m) => {
      loaded = m;
      return m;
    });
  const Page = lazy(() => {
    const done = loaded;
    if (!done) return preload();
    const now: PromiseLike<typeof done> = {
      then: (resolve) => Promise.resolve(resolve ? resolve(done) : done) as never,
    };
    return now as Promise<typeof done>;
  });
  return { Page, preload };
}

function routeObject(r: AppRoute): RouteObject {
  const { Page, preload } = lazyPage(r.page);
  const content = (
    <Suspense fallback={<PageSpinner />}>
      <Page />
      <PageShown />
    </Suspense>
  );
  return {
    path: r.path,
    element: r.guard ? <Guard {...r.guard}>{content}</Guard> : content,
    handle: { preload, prefetch: r.prefetch } satisfies RouteHandle,
  };
}

/** What each page route carries for the router: how to start loading its page chunk. */
export interface RouteHandle {
  preload: () => Promise<unknown>;
  prefetch?: AppRoute['prefetch'];
}

/**
 * Shows RouteError in place of the page (and its layout) when a page throws or its chunk
 * cannot be loaded; the next navigation (a new `resetKey`) tries again.
 */
export class RouteErrorBoundary extends Component<
  { resetKey: string; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  // React logs the error itself (createRoot's onCaughtError).
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidUpdate(prev: { resetKey: string }): void {
    if (this.state.failed && prev.resetKey !== this.props.resetKey)
      this.setState({ failed: false });
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

function Root() {
  const { pathname, search } = useLocation();
  return (
    <>
      <ScrollToTop />
      <RouteErrorBoundary resetKey={pathname + search}>
        <Outlet />
      </RouteErrorBoundary>
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
      children: groups.map((g) => ({
        element: g.element,
        children: routes.filter(g.pick).map(routeObject),
      })),
    },
  ];
}
