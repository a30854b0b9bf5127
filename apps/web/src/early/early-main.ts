/**
 * index.html's inline early script (built and inlined by vite.config.ts): for a signed-in
 * visitor, starts GET /user and the first page's requests while the app's script downloads.
 * See lib/early.ts. It must stay small and free of React: it runs before anything else.
 */
import { earlyRoutes as accountRoutes } from '../features/account/early';
import { publicRoutes } from '../features/auth/early';
import { earlyRoutes as bountyRoutes } from '../features/bounties/early';
import { earlyRoutes as messageRoutes } from '../features/messages/early';
import { earlyRoutes as profileRoutes } from '../features/profiles/early';
import { getToken } from '../lib/api-client';
import { apiBaseUrl } from '../lib/config';
import {
  earlyRouteFor,
  preloadFiles,
  startEarly,
  type EarlyCall,
  type EarlyRoute,
  type PageChunks,
} from '../lib/early';
import { preloadImage } from '../lib/preload-image';

export const EARLY_ROUTES: EarlyRoute[] = [
  ...bountyRoutes,
  ...profileRoutes,
  ...accountRoutes,
  ...messageRoutes,
];

/** Pages a visitor without a session opens: only their chunks are preloaded. */
export const PUBLIC_ROUTES: EarlyRoute[] = publicRoutes;

/** The files of the page chunk of a public page (nothing elsewhere). */
export function publicPlan(pathname: string, chunks: PageChunks): string[] {
  const match = earlyRouteFor(PUBLIC_ROUTES, pathname, new URLSearchParams());
  return match ? (chunks[match.route.page] ?? []) : [];
}

/** GET /user and the route's first requests; the files of its page's chunk. */
export function earlyPlan(
  pathname: string,
  search: string,
  chunks: PageChunks,
): { calls: EarlyCall[]; files: string[] } {
  const match = earlyRouteFor(EARLY_ROUTES, pathname, new URLSearchParams(search));
  return {
    calls: [{ method: 'GET', path: '/user' }, ...(match?.calls ?? [])],
    files: match ? (chunks[match.route.page] ?? []) : [],
  };
}

/**
 * A signed-in visitor: GET /user, the page's requests and chunk. Anyone else is sent to a
 * public page first: only a public page's chunk is preloaded.
 */
export function runEarly(chunks: PageChunks): void {
  const token = getToken();
  if (!token) {
    try {
      preloadFiles(publicPlan(location.pathname, chunks));
    } catch {
      // The app loads the page itself.
    }
    return;
  }
  try {
    const plan = earlyPlan(location.pathname, location.search, chunks);
    preloadFiles(plan.files);
    startEarly(plan.calls, apiBaseUrl(), token, preloadImage);
  } catch {
    // The app asks for everything itself.
  }
}
