/**
 * index.html's inline early script (built and inlined by vite.config.ts): for a signed-in
 * visitor, starts GET /user and the first page's requests while the app's script downloads.
 * See lib/early.ts. It must stay small and free of React: it runs before anything else.
 */
import { earlyRoutes as bountyRoutes } from '../features/bounties/early';
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

export const EARLY_ROUTES: EarlyRoute[] = [...bountyRoutes, ...profileRoutes];

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

/** Only for a signed-in visitor: everyone else is sent to a public page first. */
export function runEarly(chunks: PageChunks): void {
  const token = getToken();
  if (!token) return;
  try {
    const plan = earlyPlan(location.pathname, location.search, chunks);
    preloadFiles(plan.files);
    startEarly(plan.calls, apiBaseUrl(), token, preloadImage);
  } catch {
    // The app asks for everything itself.
  }
}
