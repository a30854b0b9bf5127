/**
 * POST /bounty/search: the bounty feeds (home, and "More bounties" under a claim), paged by
 * the `x-next-cursor` header (`apiPage`).
 */
import type { Bounty } from '@bountyhunt/shared/bounties';
import { UI } from '@bountyhunt/shared/api';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiPage, type ApiPage } from '../../../lib/api-client';
import { apiPagesOptions } from '../../../lib/query';
import { bountyKeys } from './keys';
import { feedSearchBody, type SearchBody } from './requests';

export type SearchPage = ApiPage<Bounty>;

interface CachedPage {
  at: number;
  page: SearchPage;
}

/** SPEC.md §9: a claim's search results live in session storage under e-{claimId} for 5 minutes. */
export function readSearchCache(claimId: number, now = Date.now()): SearchPage | null {
  const key = `${UI.searchCachePrefix}${claimId}`;
  try {
    const raw = window.sessionStorage.getItem(key);
    if (!raw) return null;
    const cached = JSON.parse(raw) as CachedPage;
    if (typeof cached?.at === 'number' && now - cached.at < UI.searchCacheMs) return cached.page;
    window.sessionStorage.removeItem(key);
  } catch {
    // Unreadable entry or no storage: fetch again.
  }
  return null;
}

export function writeSearchCache(claimId: number, page: SearchPage, now = Date.now()): void {
  try {
    window.sessionStorage.setItem(
      `${UI.searchCachePrefix}${claimId}`,
      JSON.stringify({ at: now, page } satisfies CachedPage),
    );
  } catch {
    // Storage full or unavailable: the cache is only an optimisation.
  }
}

/** One page of results; under a claim (`claimId`), its first page is cached (SPEC.md §9). */
export async function searchBounties(
  body: SearchBody,
  opts: { claimId?: number; signal?: AbortSignal } = {},
): Promise<SearchPage> {
  const cacheable = opts.claimId !== undefined && !body.cursor;
  if (cacheable) {
    const hit = readSearchCache(opts.claimId!);
    if (hit) return hit;
  }
  const page = await apiPage<Bounty>(
    'POST',
    '/bounty/search',
    body,
    opts.signal ? { signal: opts.signal } : {},
  );
  if (cacheable && page.status === 200) writeSearchCache(opts.claimId!, page);
  return page;
}

export function bountyFeedQuery(term: string, excludeId?: number, claimId?: number) {
  return apiPagesOptions(bountyKeys.feed(term, excludeId, claimId), (cursor, signal) =>
    searchBounties(feedSearchBody(term, excludeId, cursor), {
      ...(claimId !== undefined ? { claimId } : {}),
      signal,
    }),
  );
}

export const useBountyFeed = (term: string, excludeId?: number, claimId?: number) =>
  useInfiniteQuery(bountyFeedQuery(term, excludeId, claimId));
