/**
 * TanStack Query on top of the SPEC.md §7 client. Queries and mutations resolve with the
 * whole `{status, data, message}` result instead of throwing, because pages show messages
 * that depend on the status (SPEC.md §8): check `result.status`, not `isError`.
 *
 *   // features/bounties/api/get-bounty.ts (keys from the feature's key factory, api/keys.ts)
 *   export const bountyQuery = (id: string) => apiQueryOptions<Bounty>(bountyKeys.bounty(id), `/bounty/${id}`);
 *   export const useBounty = (id: string) => useApiQuery(bountyQuery(id));
 *   // in a page
 *   const { data: res, isPending } = useBounty(id);
 *   if (res && res.status !== 200) return <Alert>{MSGF.bountyLoadError(res.status)}</Alert>;
 *
 *   const vote = useApiMutation<VoteInput>('POST', '/vote', { onOk: () => invalidate… });
 *   const res = await vote.mutateAsync({ claimId, votes }); // res.status === 200 ?
 */
import {
  infiniteQueryOptions,
  QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  type QueryKey,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { apiRequest, type ApiPage, type ApiResult, type RequestOptions } from './api-client';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/** Query options for a GET whose result is the whole ApiResult (never throws). */
export function apiQueryOptions<T>(queryKey: QueryKey, path: string) {
  return queryOptions<ApiResult<T>>({
    queryKey,
    queryFn: ({ signal }) => apiRequest<T>('GET', path, undefined, { signal }),
  });
}

/**
 * Infinite-query options over a cursor-paged endpoint (`apiPage`): `fetchPage` asks for the
 * page after `cursor` (undefined: the first). A failed page stops paging and keeps its status.
 */
export function apiPagesOptions<T, K extends QueryKey>(
  queryKey: K,
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<ApiPage<T>>,
) {
  return infiniteQueryOptions({
    queryKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    getNextPageParam: (last: ApiPage<T>) =>
      last.status === 200 && last.nextCursor ? last.nextCursor : undefined,
  });
}

export function useApiQuery<T>(
  options: UseQueryOptions<ApiResult<T>, Error, ApiResult<T>, QueryKey>,
) {
  return useQuery(options);
}

type Method = 'POST' | 'PUT' | 'DELETE';

/**
 * A mutation whose variables are the JSON body. `path` may be a function of the variables
 * (e.g. `(v) => `/user/ssn/${v.ssn}``); pass `body: false` to send no body.
 */
export function useApiMutation<TVars = void, TData = unknown>(
  method: Method,
  path: string | ((vars: TVars) => string),
  options: {
    body?: boolean;
    request?: RequestOptions;
    /**
     * After a 2xx answer, before `mutateAsync` resolves: the endpoint's hook updates or
     * invalidates the cached queries its change affects, so pages never name query keys. A
     * returned promise is awaited (the page goes on once the caches have the change).
     */
    onOk?: (result: ApiResult<TData>, vars: TVars) => unknown;
  } = {},
) {
  return useMutation<ApiResult<TData>, Error, TVars>({
    mutationFn: (vars) =>
      apiRequest<TData>(
        method,
        typeof path === 'function' ? path(vars) : path,
        options.body === false ? undefined : (vars ?? undefined),
        options.request,
      ),
    onSuccess: (result, vars) => {
      if (result.status >= 200 && result.status < 300) return options.onOk?.(result, vars);
    },
  });
}

/** 200, or an answer asking again would not change (no such thing: 404; a bad id: 400). */
function answeredForGood(data: unknown): boolean {
  const first =
    data && typeof data === 'object' && 'pages' in data
      ? (data as { pages: unknown[] }).pages[0]
      : data;
  const status = !!first && typeof first === 'object' && (first as { status?: number }).status;
  return status === 200 || status === 404 || status === 400;
}

/**
 * For a route's `prefetch`: `prefetching` is `queryClient.prefetchQuery(…)` (or
 * `prefetchInfiniteQuery`) of `queryKey`. Another answer (a refusal, say the guard is about to
 * send this user elsewhere, or a failure) is marked stale, so the page asks again whenever it
 * does mount instead of showing a cached refusal; a 404 is shown as it came, not asked twice.
 */
export function prefetchApiQuery(
  queryClient: QueryClient,
  queryKey: QueryKey,
  prefetching: Promise<void>,
): void {
  void prefetching.then(() => {
    if (!answeredForGood(queryClient.getQueryData(queryKey)))
      void queryClient.invalidateQueries({ queryKey, exact: true, refetchType: 'none' });
  });
}

/**
 * A route's `prefetch` of one GET (see `prefetchApiQuery`); `then` gets the data of a 200
 * answer (say, to start loading the images the page will show).
 */
export function prefetchApi<T>(
  queryClient: QueryClient,
  options: ReturnType<typeof apiQueryOptions<T>>,
  then?: (data: T) => void,
): void {
  const done = queryClient.prefetchQuery(options).then(() => {
    const res = queryClient.getQueryData(options.queryKey);
    if (res?.status === 200) then?.(res.data);
  });
  prefetchApiQuery(queryClient, options.queryKey, done);
}
