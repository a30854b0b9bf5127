/**
 * GET /conversations/{id}/messages: the thread, newest page first; each next page goes further
 * back (`before` = the previous page's `nextBefore`). Items are oldest first in every page.
 */
import type { MessagePageAnswer } from '@bountyhunt/shared/live';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResult } from '../../../lib/api-client';
import { messageKeys } from '../../../lib/live/keys';

export const threadQuery = (id: number) =>
  infiniteQueryOptions({
    queryKey: messageKeys.thread(id),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<MessagePageAnswer>(
        'GET',
        `/conversations/${id}/messages${pageParam ? `?before=${pageParam}` : ''}`,
        undefined,
        { signal },
      ),
    getNextPageParam: (last: ApiResult<MessagePageAnswer>) =>
      last.status === 200 && last.data.nextBefore ? last.data.nextBefore : undefined,
  });

export const useThread = (id: number) => useInfiniteQuery(threadQuery(id));
