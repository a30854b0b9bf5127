/** PUT /blocks/{userId} (block) and DELETE /blocks/{userId} (unblock): both answer 204. */
import { useQueryClient } from '@tanstack/react-query';
import { messageKeys } from '../../../lib/live/keys';
import { useApiMutation } from '../../../lib/query';

export function useBlockUser(block: boolean) {
  const client = useQueryClient();
  return useApiMutation<{ userId: number }>(
    block ? 'PUT' : 'DELETE',
    (v) => `/blocks/${v.userId}`,
    {
      body: false,
      onOk: () => client.invalidateQueries({ queryKey: messageKeys.all }),
    },
  );
}
