/** POST /conversations/{id}/messages: the sent message joins the thread at once. */
import type { MessageItem, MessageSendInput } from '@bountyhunt/shared/live';
import { useQueryClient } from '@tanstack/react-query';
import { addMessageToThread, type ThreadData } from '../../../lib/live/apply-event';
import { messageKeys } from '../../../lib/live/keys';
import { useApiMutation } from '../../../lib/query';

export function useSendMessage(conversationId: number) {
  const client = useQueryClient();
  return useApiMutation<MessageSendInput, MessageItem>(
    'POST',
    `/conversations/${conversationId}/messages`,
    {
      onOk: (res) => {
        client.setQueryData<ThreadData>(messageKeys.thread(conversationId), (old) =>
          addMessageToThread(old, res.data),
        );
        void client.invalidateQueries({ queryKey: messageKeys.list() });
      },
    },
  );
}
