/** GET /notifications: newest first, paged back with `before` (= the last page's `nextBefore`). */
import type { NotificationListAnswer } from '@bountyhunt/shared/live';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResult } from '../../../lib/api-client';
import { notificationKeys } from '../../../lib/live/keys';

export const notificationsQuery = () =>
  infiniteQueryOptions({
    queryKey: notificationKeys.list(),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<NotificationListAnswer>(
        'GET',
        `/notifications${pageParam ? `?before=${pageParam}` : ''}`,
        undefined,
        { signal },
      ),
    getNextPageParam: (last: ApiResult<NotificationListAnswer>) =>
      last.status === 200 && last.data.nextBefore ? last.data.nextBefore : undefined,
  });

export const useNotifications = () => useInfiniteQuery(notificationsQuery());
