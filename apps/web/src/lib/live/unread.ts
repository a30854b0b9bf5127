/**
 * The unread counts the layout shows on every page: messages (the bottom nav's badge, GET
 * /conversations/unread) and notifications (the header's bell, the `unread` of GET
 * /notifications?limit=1). Live events keep them current (./apply-event.ts); a failed answer
 * shows no badge.
 */
import type { NotificationListAnswer } from '@bountyhunt/shared/live';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResult } from '../api-client';
import { messageKeys, notificationKeys } from './keys';

type Unread = ApiResult<{ unread: number }>;

const messageUnreadQuery = queryOptions<Unread>({
  queryKey: messageKeys.unread(),
  queryFn: ({ signal }) =>
    apiRequest<{ unread: number }>('GET', '/conversations/unread', undefined, { signal }),
  staleTime: 60_000,
});

const notificationUnreadQuery = queryOptions<Unread>({
  queryKey: notificationKeys.unread(),
  queryFn: async ({ signal }) => {
    const res = await apiRequest<NotificationListAnswer>(
      'GET',
      '/notifications?limit=1',
      undefined,
      {
        signal,
      },
    );
    return { ...res, data: res.status === 200 ? { unread: res.data.unread } : { unread: 0 } };
  },
  staleTime: 60_000,
});

const count = (res: Unread | undefined) => (res?.status === 200 ? res.data.unread : 0);

export function useMessageUnread(enabled: boolean): number {
  return count(useQuery({ ...messageUnreadQuery, enabled }).data);
}

export function useNotificationUnread(enabled: boolean): number {
  return count(useQuery({ ...notificationUnreadQuery, enabled }).data);
}
