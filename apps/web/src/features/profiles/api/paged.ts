/**
 * Paged GETs of the profiles API: an array answer plus the next page's cursor in the
 * `x-next-cursor` header, which the shell's api client does not expose. Failures follow the
 * SPEC.md §7 rules (status from the response, else 500 with UNKNOWN_ERROR).
 */
import { API_MSG, NEXT_CURSOR_HEADER } from '@bountyhunt/shared/api';
import { infiniteQueryOptions, useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { fetchApi, getToken } from '../../../lib/api-client';
import { apiBaseUrl } from '../../../lib/config';

export interface PageResult<T> {
  status: number;
  data: T[];
  message: string;
  next: string | null;
}

export async function fetchPage<T>(
  path: string,
  params: Record<string, string | number | undefined>,
  signal?: AbortSignal,
): Promise<PageResult<T>> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== '') query.set(k, String(v));
  const qs = query.toString();
  const token = getToken();
  try {
    const res = await fetchApi(`${apiBaseUrl()}${path}${qs ? `?${qs}` : ''}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal,
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    if (!res.ok) {
      const message =
        body && typeof body === 'object' && 'message' in body
          ? String((body as { message: unknown }).message)
          : '';
      return { status: res.status || 500, data: [], message, next: null };
    }
    return {
      status: res.status,
      data: Array.isArray(body) ? (body as T[]) : [],
      message: '',
      next: res.headers.get(NEXT_CURSOR_HEADER),
    };
  } catch {
    return { status: 500, data: [], message: API_MSG.unknownError, next: null };
  }
}

/** Query options of an infinite list over a paged endpoint (for the hook, or a prefetch). */
export function pagedListOptions<T>(
  queryKey: QueryKey,
  path: string,
  params: Record<string, string | number | undefined> = {},
) {
  return infiniteQueryOptions({
    queryKey: [...queryKey, params],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      fetchPage<T>(path, { ...params, cursor: pageParam }, signal),
    getNextPageParam: (last: PageResult<T>) =>
      last.status === 200 && last.next ? last.next : undefined,
  });
}

/** Infinite list over a paged endpoint; a failed page stops paging and keeps its status. */
export function usePagedList<T>(
  queryKey: QueryKey,
  path: string,
  params: Record<string, string | number | undefined> = {},
  enabled = true,
) {
  return useInfiniteQuery({ ...pagedListOptions<T>(queryKey, path, params), enabled });
}
