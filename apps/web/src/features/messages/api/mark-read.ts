/** POST /conversations/{id}/read: everything up to that message is read; the badges drop. */
import type { ConversationItem, ConversationListAnswer } from '@bountyhunt/shared/live';
import { useQueryClient } from '@tanstack/react-query';
import type { ApiResult } from '../../../lib/api-client';
import { messageKeys } from '../../../lib/live/keys';
import { useApiMutation } from '../../../lib/query';

export function useMarkRead(conversationId: number) {
  const client = useQueryClient();
  return useApiMutation<{ upTo: number }, { upTo: number }>(
    'POST',
    `/conversations/${conversationId}/read`,
    {
      onOk: () => {
        client.setQueryData<ApiResult<ConversationItem>>(
          messageKeys.conversation(conversationId),
          (old) => (old?.status === 200 ? { ...old, data: { ...old.data, unread: 0 } } : old),
        );
        client.setQueryData<ApiResult<ConversationListAnswer>>(messageKeys.list(), (old) =>
          old?.status === 200
            ? {
                ...old,
                data: {
                  ...old.data,
                  items: old.data.items.map((c) =>
                    c.conversationId === conversationId ? { ...c, unread: 0 } : c,
                  ),
                },
              }
            : old,
        );
        void client.invalidateQueries({ queryKey: messageKeys.unread() });
        void client.invalidateQueries({ queryKey: messageKeys.list() });
      },
    },
  );
}
