/** GET and PUT /notifications/settings: per type, in the app and by e-mail. */
import type { NotificationSettingsAnswer } from '@bountyhunt/shared/live';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationKeys } from '../../../lib/live/keys';
import { apiQueryOptions, useApiMutation } from '../../../lib/query';

export const settingsQuery = () =>
  apiQueryOptions<NotificationSettingsAnswer>(
    notificationKeys.settings(),
    '/notifications/settings',
  );

export const useNotificationSettings = () => useQuery(settingsQuery());

export function useSaveNotificationSettings() {
  const client = useQueryClient();
  return useApiMutation<NotificationSettingsAnswer, NotificationSettingsAnswer>(
    'PUT',
    '/notifications/settings',
    {
      onOk: (res) => client.setQueryData(notificationKeys.settings(), { ...res, status: 200 }),
    },
  );
}
