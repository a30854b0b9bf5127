/**
 * The bounties feature's calls (SPEC.md §7): fetchers, query options and hooks in one place.
 * Results are `{status, data, message}` and never throw (lib/api-client).
 */
import type { Bounty, Claim } from '@bountyhunt/shared/bounties';
import { API_MSG, NEXT_CURSOR_HEADER, UI } from '@bountyhunt/shared/api';
import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiRequest, fetchApi, getToken, type ApiResult } from '../../lib/api-client';
import { apiBaseUrl } from '../../lib/config';
import { apiQueryOptions, useApiMutation } from '../../lib/query';
import {
  bountyPath,
  claimPath,
  claimRankPath,
  feedSearchBody,
  FEED_PAGE_SIZE,
  type SearchBody,
} from './requests';

export { FEED_PAGE_SIZE };

export interface SearchPage extends ApiResult<Bounty[]> {
  nextCursor: string | null;
}

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

/**
 * POST /bounty/search. Reads the next page's cursor from the x-next-cursor header, which
 * is why it uses fetch itself; the status rules are those of lib/api-client.
 */
export async function searchBounties(
  body: SearchBody,
  opts: { claimId?: number; signal?: AbortSignal } = {},
): Promise<SearchPage> {
  const cacheable = opts.claimId !== undefined && !body.cursor;
  if (cacheable) {
    const hit = readSearchCache(opts.claimId!);
    if (hit) return hit;
  }
  const token = getToken();
  try {
    const res = await fetchApi(`${apiBaseUrl()}/bounty/search`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
      signal: opts.signal,
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    if (!res.ok) {
      const message =
        parsed && typeof parsed === 'object' && 'message' in parsed
          ? String((parsed as { message: unknown }).message)
          : typeof parsed === 'string'
            ? parsed
            : '';
      return { status: res.status || 500, data: [], message, nextCursor: null };
    }
    const page: SearchPage = {
      status: res.status,
      data: Array.isArray(parsed) ? (parsed as Bounty[]) : [],
      message: '',
      nextCursor: res.headers.get(NEXT_CURSOR_HEADER),
    };
    if (cacheable) writeSearchCache(opts.claimId!, page);
    return page;
  } catch {
    return { status: 500, data: [], message: API_MSG.unknownError, nextCursor: null };
  }
}

export function bountyFeedQuery(term: string, excludeId?: number, claimId?: number) {
  return infiniteQueryOptions({
    queryKey: ['bounties', 'search', term, excludeId ?? null, claimId ?? null],
    queryFn: ({ pageParam, signal }) =>
      searchBounties(feedSearchBody(term, excludeId, pageParam), {
        ...(claimId !== undefined ? { claimId } : {}),
        signal,
      }),
    initialPageParam: '' as string,
    getNextPageParam: (last: SearchPage) =>
      last.status === 200 && last.nextCursor ? last.nextCursor : undefined,
  });
}

export const useBountyFeed = (term: string, excludeId?: number, claimId?: number) =>
  useInfiniteQuery(bountyFeedQuery(term, excludeId, claimId));

export const bountyQuery = (id: string) => apiQueryOptions<Bounty>(['bounty', id], bountyPath(id));
export const useBounty = (id: string) => useQuery(bountyQuery(id));

export const claimQuery = (id: string) => apiQueryOptions<Claim>(['claim', id], claimPath(id));
export const useClaim = (id: string) => useQuery(claimQuery(id));

export const claimRankQuery = (id: string) =>
  apiQueryOptions<number>(['claim', id, 'rank'], claimRankPath(id));
export const useClaimRank = (id: string) => useQuery(claimRankQuery(id));

export const myVoteQuery = (id: string) =>
  apiQueryOptions<number>(['claim', id, 'vote'], `/vote/${id}`);
export const useMyVote = (id: string, enabled: boolean) =>
  useQuery({ ...myVoteQuery(id), enabled });

export const usePostBounty = () =>
  useApiMutation<{ title: string; seconds: number; mediaType: number; amount: number }, Bounty>(
    'POST',
    '/bounty',
  );

export const usePostClaim = () =>
  useApiMutation<{ bountyId: number; roundId: number; media: string; multiple: boolean }, Claim>(
    'POST',
    '/claim',
  );

export const useVote = () =>
  useApiMutation<{ claimId: number; votes: number }, { votes: number }>('POST', '/vote');

export const useOpenRound = (bountyId: number) =>
  useApiMutation<{ seconds: number; amount: number }, Bounty>('POST', `/bounty/${bountyId}/round`);

/** POST /media/image or /media/video with the raw file (CONTRACT.md "Media"). */
export function uploadMedia(
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<ApiResult<{ key: string }>> {
  const path = file.type.startsWith('video/') ? '/media/video' : '/media/image';
  return apiRequest<{ key: string }>('POST', path, undefined, {
    raw: file,
    timeoutMs: 10 * 60_000,
    ...(onProgress ? { onProgress } : {}),
  });
}
