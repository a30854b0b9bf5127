/** POST /notifications/read: up to one notification, or all when `upTo` is absent → {unread}. */
import { useQueryClient } from '@tanstack/react-query';
import type { ApiResult } from '../../../lib/api-client';
import { notificationKeys } from '../../../lib/live/keys';
import { useApiMutation } from '../../../lib/query';

export function useMarkNotificationsRead() {
  const client = useQueryClient();
  return useApiMutation<{ upTo?: number }, { unread: number }>('POST', '/notifications/read', {
    onOk: (res) => {
      client.setQueryData<ApiResult<{ unread: number }>>(notificationKeys.unread(), {
        status: 200,
        data: { unread: res.data.unread },
        message: '',
      });
      return client.invalidateQueries({ queryKey: notificationKeys.list() });
    },
  });
}
